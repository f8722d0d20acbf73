// Gemini CLI, OpenCode and GitHub Copilot CLI as managed agents: the REAL CLIs from npm (devDependencies) against
// local fake model servers (Gemini API through GOOGLE_GEMINI_BASE_URL; OpenAI's Responses API
// as an OpenCode custom provider's baseURL, and as Copilot's own model provider through
// COPILOT_PROVIDER_BASE_URL, offline) — the model is the only fake, it lives off this machine. Mention → turn → reply in the room through our helper, resume, stop.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned, isAlive } from '../../support';
import { gate, replyInRoom, say } from '../../support/fakeModels';
import { startManagedApp, waitUntil, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'providers-room';
/** OpenCode starts slowly on this shared machine (its own server, database and plugin install each run: ~50 s). */
const SLOW = { timeout: 400_000 };
const TURN_MS = 180_000;

describe.each(['gemini', 'opencode', 'copilot'] as const)('a managed %s agent (real CLI, fake model)', (provider) => {
  it('answers a mention in the room through our tools, with usage, and continues its own session on the next mention', SLOW, async () => {
    app = await startManagedApp({ provider });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider, folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    app.model.script.push('Juniper', ...replyInRoom('On it: the build fails in step 3.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper why does the build fail?' });
    const first = await app.turnEnded(agent.agentId, 1, TURN_MS);
    expect(first.status, JSON.stringify(first)).toBe('done');
    const answer = (await app.call('messages.timeline', { roomId: ROOM })).messages.find((m) => m.source === 'agent');
    expect(answer?.text).toBe('On it: the build fails in step 3.');
    expect(answer?.sender.name).toBe('Juniper');
    const [request] = app.model.script.requestsFor('Juniper');
    // Our helper is the turn's MCP server: the model was offered our tools.
    expect(request.mcpTools).toEqual(expect.arrayContaining(['register_agent_session', 'send_message']));
    expect(first.entries.map((e) => e.text)).toEqual(expect.arrayContaining([expect.stringMatching(/^send_message: "/), 'Answered in the room.']));
    expect(first.inputTokens).toBeGreaterThan(0);
    expect(first.outputTokens).toBeGreaterThan(0);

    app.model.script.push('Juniper', ...replyInRoom('Fixed it.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper thanks, can you fix it?' });
    const second = await app.turnEnded(agent.agentId, 2, TURN_MS);
    expect(second.status, JSON.stringify(second)).toBe('done');
    expect(second.entries.map((e) => e.text)).not.toContain(expect.stringContaining('starting a new one'));
    const resumed = app.model.script.requestsFor('Juniper').at(-3)!;
    // The CLI continued its own session: the first turn's prompt is in the conversation.
    expect(resumed.prompts.join('\n')).toContain('@Juniper why does the build fail?');
    expect(resumed.prompts.join('\n')).toContain('@Juniper thanks, can you fix it?');
  });

  it('Stop ends the running turn and its process, and the room says so', SLOW, async () => {
    app = await startManagedApp({ provider });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider, folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    app.model.script.push('Juniper', gate(say('never sent')).step);
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper a long job' });
    await waitUntil(() => app!.model.script.requestsFor('Juniper').length === 1, TURN_MS, 'the turn to reach the model');
    const pid = app.host.app.agents.runningPid(agent.agentId)!;
    expect(isAlive(pid)).toBe(true);
    const stopped = await app.call('agents.stop', { agentId: agent.agentId });
    expect(stopped.state).toBe('idle');
    expect(isAlive(pid)).toBe(false);
    const [turn] = await app.turns(agent.agentId);
    expect(turn.status).toBe('stopped');
    const timeline = await app.call('messages.timeline', { roomId: ROOM });
    expect(timeline.messages.at(-1)?.text).toMatch(/^Juniper's turn was stopped by .+\.$/);
  });
});
