// Automations end to end with the REAL Claude Code against a scripted fake model (the model is
// the only fake) and a clock the test moves: an every-minute automation gives its agent a turn
// whose reply lands in the room; a run while the previous one still runs is skipped and
// recorded; a task moved to Review mentions the reviewer automation's agent, which answers;
// Claude Code's own usage-limit error with a reset time holds the agent (one room notice)
// until the reset, then it resumes by itself; a short rate limit is tried again without a hold.
import { afterEach, describe, expect, it } from 'vitest';
import { timeText } from '../../../src/main/agents/timeText';
import { cleanupSpawned } from '../../support';
import { RATE_LIMITED, claudeGatewayEnv, gate, replyInRoom, say, usageLimitRefusal } from '../../support/fakeModels';
import { ManualClock } from '../../support/manualClock';
import { startManagedApp, waitUntil, type ManagedApp } from '../agents/managedApp';
import { runEnded } from './runEnded';

const ROOM = 'automation-runs';
const MINUTE = 60_000;
let app: ManagedApp | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const everyMinute = { type: 'schedule', schedule: { kind: 'interval', minutes: 1 }, timeZone: 'UTC', catchUp: 'once' } as const;

async function runsOf(a: ManagedApp, automationId: string) {
  return a.call('automations.runs', { automationId });
}

describe('automations with the real Claude Code (fake model)', () => {
  it('an every-minute automation gives its agent a turn whose reply lands in the room, tagged in its activity', async () => {
    const clock = new ManualClock(Date.now());
    app = await startManagedApp({ provider: 'claude_code', clock });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const { automationId } = await app.call('automations.add', {
      name: 'Minute report', roomId: ROOM, target: { kind: 'agent', agentId: agent.agentId }, instructions: 'Post a one-line status of the room.', trigger: everyMinute,
    });
    app.model.script.push('Juniper', ...replyInRoom('All quiet in the room.'));
    clock.advance(MINUTE);
    const run = await runEnded(app, automationId, 1);
    expect(run, JSON.stringify(run)).toMatchObject({ cause: 'schedule', status: 'done', turns: [1] });
    expect(run.inputTokens).toBeGreaterThan(0);
    const reply = (await app.call('messages.timeline', { roomId: ROOM })).messages.find((m) => m.number === run.reply?.number);
    expect(reply).toMatchObject({ text: 'All quiet in the room.', sender: { name: 'Juniper' } });
    expect(app.model.script.requestsFor('Juniper')[0].prompts.join('\n')).toContain('The automation "Minute report" runs (Scheduled for');
    const [turn] = await app.turns(agent.agentId);
    expect(turn).toMatchObject({ trigger: 'automation', automation: { automationId, name: 'Minute report', run: 1 }, status: 'done' });
    expect(turn.triggerText).toContain('Post a one-line status of the room.');
  });

  it('skips and records a run due while the previous one is still going', async () => {
    const clock = new ManualClock(Date.now());
    app = await startManagedApp({ provider: 'claude_code', clock });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const { automationId } = await app.call('automations.add', {
      name: 'Minute report', roomId: ROOM, target: { kind: 'agent', agentId: agent.agentId }, instructions: 'Post a status.', trigger: everyMinute,
    });
    const slow = gate(say('Done.'));
    app.model.script.push('Juniper', slow.step);
    clock.advance(MINUTE);
    const a = app;
    await waitUntil(() => a.model.script.requestsFor('Juniper').length === 1, 60_000, 'the first run to reach the model');
    clock.advance(MINUTE);
    await waitUntil(async () => (await runsOf(a, automationId)).length === 2, 5_000, 'the second run to be recorded');
    const [second] = await runsOf(a, automationId);
    expect(second).toMatchObject({ number: 2, status: 'skipped', turns: [] });
    expect(second.reason).toMatch(/^its previous run \(#1, started \d\d:\d\d\) is still going$/);
    expect((await a.call('automations.list', {}))[0].running).toBe(true);
    slow.open();
    expect(await runEnded(a, automationId, 1)).toMatchObject({ status: 'done', turns: [1] });
    // One turn in all: the skipped run asked for none.
    expect((await a.turns(agent.agentId)).map((t) => t.number)).toEqual([1]);
  });

  it('a task moved to Review mentions the reviewer automation\'s agent, which answers in the room', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const reviewer = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Reviewer', permissions: 'read_only' });
    const builder = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Builder', permissions: 'read_only' });
    // The builder holds the task without taking turns here.
    await app.call('agents.pause', { agentId: builder.agentId });
    const { automationId } = await app.call('automations.add', {
      name: 'Review on Review', roomId: ROOM, target: { kind: 'mention', handle: '@Reviewer' }, instructions: 'Review the task that just reached review.', trigger: { type: 'task_status', status: 'in_review' },
    });
    app.model.script.push('Reviewer', ...replyInRoom('Reviewed task_1: looks good.'));
    const task = await app.call('tasks.create', { roomId: ROOM, title: 'Fix the login form' });
    await app.call('tasks.handoff', { roomId: ROOM, number: task.number, toAgentKey: builder.agentKey! });
    await app.call('tasks.move', { roomId: ROOM, number: task.number, to: 'in_review' });
    const run = await runEnded(app, automationId, 1);
    expect(run).toMatchObject({ cause: 'event', status: 'done' });
    expect(run.causeText).toBe('task_1 "Fix the login form" entered In review (moved by ' + (await app.host.app.auth.ownerIdentity()).ownerLabel + ')');
    const messages = (await app.call('messages.timeline', { roomId: ROOM })).messages;
    const mention = messages.find((m) => m.number === run.reply?.number);
    expect(mention?.text).toMatch(/^@Reviewer Review the task that just reached review\.\n\n\(Automation "Review on Review": task_1 "Fix the login form" entered In review/);
    const turn = await app.turnEnded(reviewer.agentId, 1);
    expect(turn.status, JSON.stringify(turn)).toBe('done');
    expect(turn.triggerText).toContain('@Reviewer Review the task that just reached review.');
    await waitUntil(async () => (await app!.call('messages.timeline', { roomId: ROOM })).messages.some((m) => m.text === 'Reviewed task_1: looks good.'), 10_000, 'the review');
  });

  it("holds the agent at Claude Code's own usage-limit error until its reset (one notice), then resumes by itself", async () => {
    const clock = new ManualClock(Date.now());
    app = await startManagedApp({ provider: 'claude_code', clock, env: claudeGatewayEnv });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const { automationId } = await app.call('automations.add', {
      name: 'Minute report', roomId: ROOM, target: { kind: 'agent', agentId: agent.agentId }, instructions: 'Post a status.', trigger: { ...everyMinute, schedule: { kind: 'interval', minutes: 600 } },
    });
    const resetsAt = Math.floor((clock.now() + 2 * 3_600_000) / 1_000) * 1_000;
    app.model.script.refusal = usageLimitRefusal(resetsAt);
    await app.call('automations.runNow', { automationId });
    const refused = await app.turnEnded(agent.agentId, 1);
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(/^You've hit your 5-hour limit · resets /);
    const a = app;
    await waitUntil(async () => (await a.call('agents.list', {}))[0].state === 'limited', 5_000, 'the hold');
    const held = (await a.call('agents.list', {}))[0];
    expect(held.resumesAt).toBe(new Date(resetsAt).toISOString());
    expect(refused.entries.map((e) => e.text)).toContain(`Claude Code's usage limit is reached: no turns until it resets; it resumes by itself after ${timeText(resetsAt, clock.now())}.`);
    const notice = `Juniper reached Claude Code's usage limit and resumes after ${timeText(resetsAt, clock.now())}.`;
    const notices = async () => (await a.call('messages.timeline', { roomId: ROOM })).messages.filter((m) => m.text === notice);
    await waitUntil(async () => (await notices()).length === 1, 5_000, 'the room notice');
    // Held: a mention waits (no turn, no second notice), and the run goes on (it is not over).
    await a.call('messages.send', { roomId: ROOM, text: '@Juniper is the build green?' });
    expect((await a.call('agents.list', {}))[0].waitingMessages).toBe(1);
    expect((await runsOf(a, automationId))[0].status).toBe('running');
    expect(await a.fail('agents.runNow', { agentId: agent.agentId })).toMatch(/^Juniper waits for Claude Code's usage limit to reset \(after .+\)\. Resume tries now\.$/);

    a.model.script.refusal = null;
    a.model.script.push('Juniper', ...replyInRoom('Back: the build is green.'));
    clock.advanceTo(resetsAt);
    const resumed = await a.turnEnded(agent.agentId, 2);
    expect(resumed.status, JSON.stringify(resumed)).toBe('done');
    expect(resumed.triggerText).toContain('@Juniper is the build green?');
    expect(await runEnded(a, automationId, 1)).toMatchObject({ status: 'done', turns: [1, 2] });
    expect((await a.call('agents.list', {}))[0]).toMatchObject({ state: 'idle', resumesAt: null });
    expect(await notices()).toHaveLength(1);
    expect(a.model.script.refused).toBe(1);
  });

  it('tries a short rate limit again after its backoff, without a hold', async () => {
    const clock = new ManualClock(Date.now());
    app = await startManagedApp({ provider: 'claude_code', clock, managedTurns: { rateLimitBackoffMs: [30_000, 120_000] } });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    app.model.script.refusal = RATE_LIMITED;
    await app.call('messages.send', { roomId: ROOM, text: '@Juniper is the build green?' });
    const limited = await app.turnEnded(agent.agentId, 1);
    expect(limited.error).toMatch(/^API Error: Request rejected \(429\)/);
    const a = app;
    await waitUntil(async () => (await a.call('agents.list', {}))[0].retryAt !== null, 5_000, 'the retry');
    expect((await a.call('agents.list', {}))[0]).toMatchObject({ state: 'idle', cantRun: null, resumesAt: null, retryAt: new Date(clock.now() + 30_000).toISOString() });
    expect((await a.turns(agent.agentId))[0].entries.map((e) => e.text)).toContain('Rate limited by Claude Code: trying again in 30 s (try 1 of 2).');
    a.model.script.refusal = null;
    a.model.script.push('Juniper', ...replyInRoom('Yes, green.'));
    clock.advance(30_000);
    const retried = await a.turnEnded(agent.agentId, 2);
    expect(retried.status, JSON.stringify(retried)).toBe('done');
    expect(retried.triggerText).toContain('@Juniper is the build green?');
    expect((await a.call('agents.list', {}))[0].retryAt).toBeNull();
  });
});
