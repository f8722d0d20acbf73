// Managed agents with the REAL Claude Code and Codex CLIs against fake model servers (the
// model is the only fake): a mention gives the agent a turn, the agent answers in the room
// through our tools, and the next mention continues the same provider session.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { callBuiltInTool, replyInRoom, say } from '../../support/fakeModels';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'managed-room';

describe.each(['claude_code', 'codex'] as const)('a managed %s agent (fake model)', (provider) => {
  it('starts a turn on a mention, answers in the room through our tools, and resumes its session on the next mention', async () => {
    app = await startManagedApp({ provider });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider, folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    app.model.script.push('Juniper', ...replyInRoom('On it: the build fails in step 3.'));
    const mention = await app.call('messages.send', { roomId: ROOM, text: '@Juniper why does the build fail?' });
    const first = await app.turnEnded(agent.agentId, 1);
    expect(first.status, JSON.stringify(first)).toBe('done');
    expect(Date.parse(first.startedAt) - Date.parse(mention.createdAt)).toBeLessThan(2_000);
    const timeline = await app.call('messages.timeline', { roomId: ROOM });
    const answer = timeline.messages.find((m) => m.source === 'agent');
    expect(answer?.text).toBe('On it: the build fails in step 3.');
    expect(answer?.sender.name).toBe('Juniper');
    const [request] = app.model.script.requestsFor('Juniper');
    expect(request.prompts.join('\n')).toContain('@Juniper why does the build fail?');
    expect(first.entries.map((e) => e.kind)).toEqual(expect.arrayContaining(['trigger', 'tool_call', 'text']));
    expect(first.inputTokens).toBeGreaterThan(0);

    app.model.script.push('Juniper', ...replyInRoom('Fixed it.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper thanks, can you fix it?' });
    const second = await app.turnEnded(agent.agentId, 2);
    expect(second.status, JSON.stringify(second)).toBe('done');
    const resumed = app.model.script.requestsFor('Juniper').at(-3)!;
    // The provider continued its own session: the first turn's prompt is in the conversation.
    expect(resumed.prompts.join('\n')).toContain('@Juniper why does the build fail?');
    expect(resumed.prompts.join('\n')).toContain('@Juniper thanks, can you fix it?');
  });
});

describe('what a managed Claude Code agent may do outside our tools (fake model)', () => {
  it('read-only refuses file edits, may-edit allows them in its folder', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const target = join(app.folder, 'notes.md');
    const writeNotes = () => [callBuiltInTool('Write', { file_path: target, content: '# Notes\n' }), say('Tried to write the notes.')];
    const reader = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Reader', permissions: 'read_only' });
    const editor = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Editor', permissions: 'edit' });
    await app.call('agents.pause', { agentId: editor.agentId });
    app.model.script.push('Reader', ...writeNotes());
    await app.call('agents.runNow', { agentId: reader.agentId });
    const refused = await app.turnEnded(reader.agentId, 1);
    expect(existsSync(target)).toBe(false);
    expect(refused.entries.map((e) => e.text)).toContain('Not allowed to use Write (outside the permissions chosen for this agent).');

    app.model.script.push('Editor', ...writeNotes());
    await app.call('agents.runNow', { agentId: editor.agentId });
    expect((await app.turnEnded(editor.agentId, 1)).status).toBe('done');
    expect(existsSync(target)).toBe(true);
  });
});
