// "Ask me" (issue 25): a managed Claude Code agent's tool use waits for the person's answer in
// Needs you. The REAL Claude Code CLI against a fake model server (the model is the only fake);
// it asks through our permission-prompt tool, reached through the real helper.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NeedsYouItem } from '../../../src/shared/types';
import { MAX_SHOWN_INPUT_CHARS } from '../../../src/shared/model/approvals';
import { cleanupSpawned } from '../../support';
import { callBuiltInTool, say } from '../../support/fakeModels';
import { startManagedApp, waitUntil, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'ask-room';
const touch = (file: string) => callBuiltInTool('Bash', { command: `touch ${file}`, description: 'Create the file' });

async function approvalItems(a: ManagedApp): Promise<NeedsYouItem[]> {
  return (await a.call('needsYou.list', {})).items.filter((item) => item.approval !== null);
}

/** Waits for the next pending approval; logs how long it took from the model's tool request. */
async function nextApproval(a: ManagedApp, agent: string): Promise<NeedsYouItem> {
  let item: NeedsYouItem | undefined;
  await waitUntil(async () => (item = (await approvalItems(a))[0]) !== undefined, 30_000);
  const asked = a.model.script.requests.filter((r) => r.agent === agent).at(-1)!.at;
  console.log(`model's tool request → Needs you item (upper bound, includes polling): ${Math.round(performance.now() - asked)} ms`);
  return item!;
}

describe('a managed Claude Code agent that asks ("Ask me", fake model)', () => {
  it('waits for Allow once, Deny (the agent gets the note) and Allow for this turn, and logs each answer', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Asker', permissions: 'ask' });
    const [allowed, denied, first, second] = ['allowed', 'denied', 'first', 'second'].map((n) => join(app!.folder, n));
    app.model.script.push('Asker', touch(allowed), touch(denied), touch(first), touch(second), say('Done.'));
    await app.call('agents.runNow', { agentId: agent.agentId });

    const asked = await nextApproval(app, 'Asker');
    expect(asked.title).toBe('Asker asks to use Bash');
    expect(asked.approval).toMatchObject({ tool: 'Bash', summary: `touch ${allowed}`, choices: ['allow_once', 'allow_turn', 'deny'] });
    expect(asked.approval!.inputPreview).toContain('Create the file');
    expect(existsSync(allowed)).toBe(false);
    expect(await app.call('approvals.decide', { number: asked.approval!.number, decision: 'allow_once' })).toMatchObject({ settled: true });
    await waitUntil(() => existsSync(allowed), 30_000);
    // A second answer to a settled request changes nothing and says so.
    const late = await app.call('approvals.decide', { number: asked.approval!.number, decision: 'deny' });
    expect(late.settled).toBe(false);
    expect(late.message).toContain('Already settled: allowed once');

    const deny = await nextApproval(app, 'Asker');
    expect(deny.approval!.summary).toBe(`touch ${denied}`);
    await app.call('approvals.decide', { number: deny.approval!.number, decision: 'deny', note: 'Not in the project root, please.' });

    const turnWide = await nextApproval(app, 'Asker');
    expect(turnWide.approval!.summary).toBe(`touch ${first}`);
    await app.call('approvals.decide', { number: turnWide.approval!.number, decision: 'allow_turn' });

    const turn = await app.turnEnded(agent.agentId, 1);
    expect(turn.status, JSON.stringify(turn)).toBe('done');
    expect(existsSync(denied)).toBe(false);
    expect(existsSync(first)).toBe(true);
    // Allowed for this turn: the second Bash ran without asking.
    expect(existsSync(second)).toBe(true);
    expect(await approvalItems(app)).toEqual([]);
    const results = app.model.script.requestsFor('Asker').at(-1)!.toolResults.join('\n');
    expect(results).toContain('Not in the project root, please.');
    const log = turn.entries.map((e) => e.text);
    expect(log).toEqual(expect.arrayContaining([
      expect.stringMatching(/^Bash touch .*\/allowed: allowed once by /),
      expect.stringMatching(/^Bash touch .*\/denied: denied by .*: Not in the project root, please\.$/),
      expect.stringMatching(/^Bash touch .*\/first: allowed for this turn by /),
      expect.stringMatching(/^Bash touch .*\/second — allowed \(allowed for this turn\)\.$/),
    ]));
    // The person denied it: not "outside the permissions chosen for this agent" as well (issue 35).
    expect(log.join('\n')).not.toContain('outside the permissions chosen');
    // The room said each time that Asker waited for the person (issue 35).
    const events = (await app.call('messages.timeline', { roomId: ROOM })).messages.filter((m) => m.source === 'system').map((m) => m.text);
    expect(events).toEqual(expect.arrayContaining([`Asker waits for your approval to use Bash: touch ${allowed} (Needs you).`, `Asker waits for your approval to use Bash: touch ${denied} (Needs you).`]));
  });

  it('shows the whole of a long command and its input, so Allow runs only what the person was shown', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Asker', permissions: 'ask' });
    // The part that matters comes after 1,000 characters: the item used to cut it off.
    const tail = join(app.folder, 'the-tail-ran');
    const command = `echo ${'tidy '.repeat(300)}> /dev/null; touch ${tail}`;
    app.model.script.push('Asker', callBuiltInTool('Bash', { command, description: 'Tidy up' }), say('Done.'));
    await app.call('agents.runNow', { agentId: agent.agentId });
    const asked = await nextApproval(app, 'Asker');
    expect(asked.approval!.summary).toBe(command);
    expect(JSON.parse(asked.approval!.inputPreview)).toEqual({ command, description: 'Tidy up' });
    expect(asked.approval).toMatchObject({ inputCut: false, choices: ['allow_once', 'allow_turn', 'deny'] });
    await app.call('approvals.decide', { number: asked.approval!.number, decision: 'allow_once' });
    await waitUntil(() => existsSync(tail), 30_000);
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('done');
  });

  it('offers only Deny for an input too long to show whole, and refuses an Allow for it', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Asker', permissions: 'ask' });
    const tail = join(app.folder, 'the-tail-ran');
    const command = `echo ${'x'.repeat(MAX_SHOWN_INPUT_CHARS)} > /dev/null; touch ${tail}`;
    app.model.script.push('Asker', callBuiltInTool('Bash', { command, description: 'A very long one' }), say('Done.'));
    await app.call('agents.runNow', { agentId: agent.agentId });
    const asked = await nextApproval(app, 'Asker');
    expect(asked.approval).toMatchObject({ inputCut: true, choices: ['deny'] });
    expect(asked.approval!.summary).toMatch(/ more characters not shown ⋯$/);
    expect(asked.approval!.summary).not.toContain(tail);
    expect(await app.fail('approvals.decide', { number: asked.approval!.number, decision: 'allow_once' })).toContain('too long to show whole');
    expect(await approvalItems(app)).toHaveLength(1);
    await app.call('approvals.decide', { number: asked.approval!.number, decision: 'deny' });
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('done');
    expect(existsSync(tail)).toBe(false);
  });

  it('closes the item when its turn is stopped while the request waits', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Asker', permissions: 'ask' });
    app.model.script.push('Asker', touch(join(app.folder, 'never')), say('Done.'));
    await app.call('agents.runNow', { agentId: agent.agentId });
    const asked = await nextApproval(app, 'Asker');
    await app.call('agents.stop', { agentId: agent.agentId });
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('stopped');
    expect(await approvalItems(app)).toEqual([]);
    const late = await app.call('approvals.decide', { number: asked.approval!.number, decision: 'allow_once' });
    expect(late).toMatchObject({ settled: false });
    expect(late.message).toContain('stopped');
    expect(existsSync(join(app.folder, 'never'))).toBe(false);
  });

  it('is not offered for Codex, with a clear reason', async () => {
    app = await startManagedApp({ provider: 'codex' });
    await app.room(ROOM);
    const refused = await app.fail('agents.add', { provider: 'codex', folder: app.folder, roomId: ROOM, name: 'Cedar', permissions: 'ask' });
    expect(refused).toContain('Codex cannot ask you before each tool use');
    expect(await app.call('agents.list', {})).toEqual([]);
  });
});
