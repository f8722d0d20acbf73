// Steering managed agents run by the REAL Claude Code and Codex CLIs against fake model
// servers: what arrives during a turn makes exactly one next turn, Pause stops wakes, Stop
// ends a running turn (its whole process tree) and the room says so, and the provider gets
// neither the agent token nor the GitHub token.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GITHUB_TOKEN_ACCOUNT } from '../../../src/main/secrets/secretStore';
import { cleanupSpawned } from '../../support';
import { callTool, gate, identityIn, replyInRoom, say } from '../../support/fakeModels';
import { joinAgent } from '../../e2e/lib/agents';
import { startManagedApp, waitUntil, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'steering-room';

/** The provider and every process below it (by parent pid, whatever process group they chose). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

/** Alive and not a zombie (an exited child whose parent has not reaped it yet is gone for good). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** What a process was started with; null when it already exited (tools a provider runs come and go). */
function startedWith(pid: number): { environ: string; cmdline: string } | null {
  try {
    return { environ: readFileSync(`/proc/${pid}/environ`, 'utf8'), cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8') };
  } catch {
    return null;
  }
}

async function addJuniper(a: ManagedApp, provider: 'claude_code' | 'codex', extra: { turnsPerHour?: number } = {}) {
  await a.room(ROOM);
  return a.call('agents.add', { provider, folder: a.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only', ...extra });
}

describe.each(['claude_code', 'codex'] as const)('steering a managed %s agent (fake model)', (provider) => {
  it('messages that arrive during a turn make exactly one next turn, with all of them', async () => {
    app = await startManagedApp({ provider });
    const agent = await addJuniper(app, provider);
    const slow = gate(callTool('register_agent_session', (r) => identityIn(r)));
    app.model.script.push('Juniper', slow.step, say('First turn done.'), say('Second turn done.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper start with the parser' });
    await waitUntil(() => app!.model.script.requestsFor('Juniper').length === 1, 30_000, 'the first turn to reach the model');
    for (const text of ['@Juniper also the lexer', '@Juniper and the docs', '@Juniper last: the tests']) {
      await app.call('messages.send', { roomId: ROOM, text });
    }
    expect((await app.call('agents.list', {}))[0].state).toBe('running');
    slow.open();
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('done');
    const second = await app.turnEnded(agent.agentId, 2);
    expect(second.status).toBe('done');
    for (const text of ['also the lexer', 'and the docs', 'last: the tests']) expect(second.triggerText).toContain(text);
    const [listed] = await app.call('agents.list', {});
    expect(listed.state).toBe('idle');
    expect((await app.turns(agent.agentId)).map((t) => t.number)).toEqual([2, 1]);
  });

  it('Stop ends the running turn and its process tree within 5 s, and the room says so', async () => {
    app = await startManagedApp({ provider });
    const agent = await addJuniper(app, provider);
    app.model.script.push('Juniper', gate(say('never sent')).step);
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper a long job' });
    await waitUntil(() => app!.model.script.requestsFor('Juniper').length === 1, 30_000, 'the turn to reach the model');
    const pid = app.host.app.agents.runningPid(agent.agentId)!;
    const tree = processTree(pid);
    expect(tree.length).toBeGreaterThan(1); // the provider and our helper at least
    const started = Date.now();
    const stopped = await app.call('agents.stop', { agentId: agent.agentId });
    expect(stopped.state).toBe('idle');
    // The whole tree is gone within the 5 s (a killed process may still be exiting when Stop answers).
    await waitUntil(() => tree.filter(isRunning).length === 0, Math.max(0, 5_000 - (Date.now() - started)), 'the turn\'s process tree to end').catch(() => undefined);
    expect(tree.filter(isRunning)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
    const [turn] = await app.turns(agent.agentId);
    expect(turn.status).toBe('stopped');
    const timeline = await app.call('messages.timeline', { roomId: ROOM });
    expect(timeline.messages.at(-1)?.text).toMatch(/^Juniper's turn was stopped by .+\.$/);
    expect(timeline.messages.at(-1)?.source).toBe('system');
  });

  it("the provider's environment and arguments carry neither the agent token nor the GitHub token", async () => {
    app = await startManagedApp({ provider });
    const githubToken = 'gho_TheGitHubTokenOfThePersonInTheKeychain0123';
    await app.secrets.set(GITHUB_TOKEN_ACCOUNT, githubToken);
    const agentToken = readFileSync(join(app.dataDir, 'agent-token'), 'utf8').trim();
    const agent = await addJuniper(app, provider);
    const slow = gate(callTool('register_agent_session', (r) => identityIn(r)));
    app.model.script.push('Juniper', slow.step, say('Done.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper check the secrets' });
    await waitUntil(() => app!.model.script.requestsFor('Juniper').length === 1, 30_000, 'the turn to reach the model');
    const tree = processTree(app.host.app.agents.runningPid(agent.agentId)!);
    const seen = tree.map(startedWith).filter((p) => p !== null);
    // The helper is in the tree: it reads the token from the data folder itself.
    expect(seen.some((p) => p.cmdline.includes('letagents-desktop.js\0mcp'))).toBe(true);
    for (const p of seen) {
      for (const secret of [agentToken, githubToken]) {
        expect(p.environ).not.toContain(secret);
        expect(p.cmdline).not.toContain(secret);
      }
      // Room content and the worker_id go on stdin, not on the command line.
      expect(p.cmdline).not.toContain('check the secrets');
    }
    slow.open();
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('done');
  });
});

describe('pausing, budgets and restarts (Claude Code, fake model)', () => {
  it('Pause stops wakes; Resume brings them back', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    const juniper = await addJuniper(app, 'claude_code');
    const cedar = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Cedar', permissions: 'read_only' });
    await app.call('agents.pause', { agentId: juniper.agentId });
    app.model.script.push('Cedar', say('Nothing to add.'));
    await app.call('messages.send', { roomId: ROOM, text: '@all anyone around?' });
    // The broadcast woke both at once; Cedar's turn ending means Juniper's would have started.
    expect((await app.turnEnded(cedar.agentId, 1)).status).toBe('done');
    expect(await app.turns(juniper.agentId)).toEqual([]);
    expect((await app.call('agents.list', {})).find((a) => a.agentId === juniper.agentId)?.state).toBe('paused');

    await app.call('agents.resume', { agentId: juniper.agentId });
    app.model.script.push('Juniper', ...replyInRoom('Back.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper are you back?' });
    expect((await app.turnEnded(juniper.agentId, 1)).status).toBe('done');
    // Juniper's answer names no one; in a room of two agents that wakes Cedar, by the same rules as
    // wait_for_messages (issue 14: what stops agents answering each other forever is the loop guard).
    const second = await app.turnEnded(cedar.agentId, 2);
    expect(second.triggerText).toContain('Back.');
  });

  it('the loop guard stops two managed agents answering each other past its limit, and "Needs you" asks the person', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.call('settings.set', { delivery: { loopGuardMessages: 2 } });
    const juniper = await addJuniper(app, 'claude_code');
    const cedar = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Cedar', permissions: 'read_only' });
    app.model.script.push('Juniper', ...replyInRoom('@Cedar ping 1'), ...replyInRoom('@Cedar ping 2'));
    app.model.script.push('Cedar', ...replyInRoom('@Juniper pong 1'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper start the ping-pong' });
    expect((await app.turnEnded(juniper.agentId, 1)).status).toBe('done');
    expect((await app.turnEnded(cedar.agentId, 1)).triggerText).toContain('ping 1');
    // The third agent message in a row went past the limit of 2: it is stored, but wakes no one it was paused with.
    expect((await app.turnEnded(juniper.agentId, 2)).triggerText).toContain('pong 1');
    await expect
      .poll(async () => (await app!.call('needsYou.list', {})).items.filter((i) => i.reason === 'loop').map((i) => i.title), { timeout: 10_000 })
      .toEqual(['Juniper and Cedar were paused: they kept messaging each other']);
    // A person's message still reaches Cedar; its next turn comes from that, never from ping 2.
    app.model.script.push('Cedar', say('Stopping.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Cedar what happened?' });
    const next = await app.turnEnded(cedar.agentId, 2);
    expect(next.triggerText).toContain('what happened?');
    expect(next.triggerText).not.toContain('ping 2');
  });

  it('a turn cut off by the app closing is recorded as failed, and the next start keeps it so', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    const agent = await addJuniper(app, 'claude_code');
    app.model.script.push('Juniper', gate(say('never sent')).step);
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper a long job' });
    await waitUntil(() => app!.model.script.requestsFor('Juniper').length === 1, 30_000, 'the turn to reach the model');
    const pid = app.host.app.agents.runningPid(agent.agentId)!;
    await app.stopApp();
    expect(isRunning(pid)).toBe(false);
    const first = app;
    app = await startManagedApp({ provider: 'claude_code', from: first });
    const [turn] = await app.turns(agent.agentId);
    expect(turn).toMatchObject({ number: 1, status: 'failed', error: 'The app closed during this turn.' });
    expect((await app.call('agents.list', {}))[0].state).toBe('idle');
    await first.close();
  });

  it('a used-up budget stops turns and asks the person in "Needs you"; Resume gives a fresh budget', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    const agent = await addJuniper(app, 'claude_code', { turnsPerHour: 1 });
    app.model.script.push('Juniper', ...replyInRoom('First and only.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper one' });
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('done');
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper two' });
    await waitUntil(async () => (await app!.call('agents.list', {}))[0].state === 'held', 10_000, 'Juniper held');
    const listed = (await app.call('agents.list', {}))[0];
    expect(listed.heldReason).toMatch(/1 turn per hour/);
    expect((await app.turns(agent.agentId)).length).toBe(1);
    const needs = await app.call('needsYou.list', {});
    expect(needs.items.map((i) => i.title)).toContain('Juniper stopped taking turns: budget reached');
    expect(await app.fail('agents.runNow', { agentId: agent.agentId })).toMatch(/Resume it first/);

    // The mention that came while it was held waited (issue 25): Resume makes it the next turn.
    expect(listed.waitingMessages).toBe(1);
    app.model.script.push('Juniper', ...replyInRoom('Fresh budget.'));
    const resumed = await app.call('agents.resume', { agentId: agent.agentId });
    expect(resumed.state).not.toBe('held');
    expect((await app.call('needsYou.list', {})).items.map((i) => i.title)).not.toContain('Juniper stopped taking turns: budget reached');
    const next = await app.turnEnded(agent.agentId, 2);
    expect(next.status).toBe('done');
    expect(next.triggerText).toContain('@Juniper two');
  });

  it('room events that do not concern the agent start no turn (quiet wakes); a task a person hands to it gives it one turn that names the task', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    const agent = await addJuniper(app, 'claude_code');
    const juniperKey = (await app.call('workers.list', { roomId: ROOM })).find((w) => w.name === 'Juniper')!.agentKey;
    // Noise for Juniper (system_noise): another agent joins, posts a status, and claims a task
    // Juniper has nothing to do with. Had any of it started a turn, that turn would be turn 1.
    const cedar = await joinAgent(app.dataDir, { room: ROOM, name: 'Cedar' });
    expect(cedar.roomId).toBe(ROOM);
    const other = await app.call('tasks.create', { roomId: ROOM, title: 'Update the changelog' });
    expect((await cedar.call('post_status', { status: 'reading the changelog' })).isError).toBeUndefined();
    expect((await cedar.call('claim_task', { task_id: `task_${other.number}` })).isError).toBeUndefined();
    await cedar.close();

    const task = await app.call('tasks.create', { roomId: ROOM, title: 'Fix the flaky checkout test' });
    app.model.script.push('Juniper', ...replyInRoom('Taking the flaky test.'));
    await app.call('tasks.handoff', { roomId: ROOM, number: task.number, toAgentKey: juniperKey });
    const turn = await app.turnEnded(agent.agentId, 1);
    expect(turn.status).toBe('done');
    expect(turn.triggerText).toContain(`task_${task.number} ("Fix the flaky checkout test") was assigned or handed to you.`);
    expect(turn.triggerText).not.toMatch(/Cedar|changelog/);
    expect((await app.turns(agent.agentId)).length).toBe(1);
  });

  it('the desired state and the agent identity survive an app restart', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    const agent = await addJuniper(app, 'claude_code');
    app.model.script.push('Juniper', ...replyInRoom('Before the restart.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper hello' });
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('done');
    const before = (await app.call('messages.timeline', { roomId: ROOM })).messages.find((m) => m.source === 'agent')!;
    const workerBefore = identityIn(app.model.script.requestsFor('Juniper')[0]).worker_id;
    await app.call('agents.pause', { agentId: agent.agentId });
    await app.stopApp();

    const first = app;
    app = await startManagedApp({ provider: 'claude_code', from: first });
    const [listed] = await app.call('agents.list', {});
    expect(listed).toMatchObject({ agentId: agent.agentId, name: 'Juniper', desiredState: 'paused', state: 'paused', sessionId: agent.sessionId });
    await app.call('agents.resume', { agentId: agent.agentId });
    app.model.script.push('Juniper', ...replyInRoom('After the restart.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper still there?' });
    expect((await app.turnEnded(agent.agentId, 2)).status).toBe('done');
    const after = (await app.call('messages.timeline', { roomId: ROOM })).messages.filter((m) => m.source === 'agent').at(-1)!;
    expect(after.text).toBe('After the restart.');
    expect(after.sender.agentKey).toBe(before.sender.agentKey);
    const requests = app.model.script.requestsFor('Juniper');
    expect(identityIn(requests.at(-1)!).worker_id).toBe(workerBefore);
    // The provider's own session carried over the restart too.
    expect(requests.at(-1)!.prompts.join('\n')).toContain('@Juniper hello');
    await first.close();
  });
});
