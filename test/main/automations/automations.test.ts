// Automations in a running app (real SQLite, the app API's dispatcher) with a clock the test
// moves: a restart after missed runs catches up once and shows how many it missed, a run that
// could not start is recorded with why, pausing skips due times without counting them missed,
// and what an automation may ask of its agent stays within what the agent may do (a refusal
// changes nothing). Mention targets post as the person; no model is needed for these.
import { afterEach, describe, expect, it } from 'vitest';
import type { AutomationInput } from '../../../src/shared/model/automations';
import { cleanupSpawned } from '../../support';
import { ManualClock } from '../../support/manualClock';
import { startManagedApp, waitUntil, type ManagedApp } from '../agents/managedApp';

const ROOM = 'automations-room';
const HOUR = 3_600_000;
let app: ManagedApp | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const hourlyMention: AutomationInput = {
  name: 'Hourly build check',
  roomId: ROOM,
  target: { kind: 'mention', handle: 'Cedar' },
  instructions: 'Post the build status.',
  trigger: { type: 'schedule', schedule: { kind: 'interval', minutes: 60 }, timeZone: 'UTC', catchUp: 'once' },
};

async function roomTexts(a: ManagedApp): Promise<string[]> {
  return (await a.call('messages.timeline', { roomId: ROOM })).messages.map((m) => m.text);
}

describe('scheduled runs across a restart', () => {
  it('after missing three runs while the app was closed, runs one catch-up and shows three missed (last at 14:00)', async () => {
    const clock = new ManualClock('2026-05-04T10:00:00Z');
    app = await startManagedApp({ provider: 'claude_code', clock });
    await app.room(ROOM);
    const { automationId } = await app.call('automations.add', hourlyMention);
    expect((await app.call('automations.list', {}))[0]).toMatchObject({ nextRunAt: '2026-05-04T11:00:00.000Z', missed: null, lastRun: null });

    clock.advanceTo('2026-05-04T11:00:00Z');
    const first = app;
    await waitUntil(async () => (await first.call('automations.runs', { automationId })).length === 1, 5_000, 'the 11:00 run');
    expect((await first.call('automations.runs', { automationId }))[0]).toMatchObject({ cause: 'schedule', status: 'done', causeText: 'Scheduled for 11:00' });

    // The app is closed from 11:30 to 14:30: 12:00, 13:00 and 14:00 pass without it.
    clock.advanceTo('2026-05-04T11:30:00Z');
    await app.stopApp();
    clock.advanceTo('2026-05-04T14:30:00Z');
    app = await startManagedApp({ provider: 'claude_code', from: first, clock });
    const again = app;
    await again.host.app.automations.ready;
    clock.advance(0);
    await waitUntil(async () => (await again.call('automations.runs', { automationId })).length === 3, 5_000, 'the catch-up');
    const [catchUp, missed, onTime] = await again.call('automations.runs', { automationId });
    expect(missed).toMatchObject({ status: 'missed', missed: 3, reason: 'Missed 3 runs (last at 14:00)', dueAt: '2026-05-04T14:00:00.000Z' });
    expect(catchUp).toMatchObject({ cause: 'catch_up', status: 'done', dueAt: '2026-05-04T14:00:00.000Z' });
    expect(onTime.cause).toBe('schedule');
    const [listed] = await again.call('automations.list', {});
    expect(listed).toMatchObject({ missed: { count: 3, lastAt: '2026-05-04T14:00:00.000Z' }, nextRunAt: '2026-05-04T15:00:00.000Z' });
    expect(listed.lastRun?.reply).toEqual({ roomId: ROOM, place: 'local', number: catchUp.reply!.number });
    // Two posts in all: the 11:00 run and one catch-up, never a burst of the three missed.
    const posts = (await roomTexts(again)).filter((t) => t.startsWith('@Cedar Post the build status.'));
    expect(posts).toHaveLength(2);
    expect(posts[1]).toContain('Catch-up for the run due at 14:00');

    // Back on time at 15:00: the missed note goes.
    clock.advanceTo('2026-05-04T15:00:00Z');
    await waitUntil(async () => (await again.call('automations.runs', { automationId })).length === 4, 5_000, 'the 15:00 run');
    expect((await again.call('automations.list', {}))[0].missed).toBeNull();
  });

  it('paused, its due times pass unrun and are not counted missed; resumed, it goes on from the next one', async () => {
    const clock = new ManualClock('2026-05-04T10:00:00Z');
    app = await startManagedApp({ provider: 'claude_code', clock });
    await app.room(ROOM);
    const { automationId } = await app.call('automations.add', hourlyMention);
    expect((await app.call('automations.pause', { automationId })).state).toBe('paused');
    expect((await app.call('automations.list', {}))[0].nextRunAt).toBeNull();
    clock.advanceTo('2026-05-04T13:30:00Z');
    const resumed = await app.call('automations.resume', { automationId });
    expect(resumed).toMatchObject({ state: 'active', nextRunAt: '2026-05-04T14:00:00.000Z', missed: null });
    clock.advanceTo('2026-05-04T14:00:00Z');
    const a = app;
    await waitUntil(async () => (await a.call('automations.runs', { automationId })).length === 1, 5_000, 'the 14:00 run');
    expect((await a.call('automations.runs', { automationId })).map((r) => r.status)).toEqual(['done']);
  });
});

describe('what an automation may ask of its agent', () => {
  it('refuses edit for a read-only agent (and asking first, for anyone), storing nothing', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const reader = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const asking = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Rowan', permissions: 'ask' });
    const base = { ...hourlyMention, name: 'Nightly triage' };
    expect(await app.fail('automations.add', { ...base, target: { kind: 'agent', agentId: reader.agentId }, limits: { permissions: 'edit' } })).toBe(
      'Juniper may only read its folder: an automation cannot let it edit files in its folder. Choose read its folder or less.',
    );
    expect(await app.fail('automations.add', { ...base, target: { kind: 'agent', agentId: asking.agentId } })).toMatch(/^An automation runs while nobody watches: it cannot ask you before each tool use/);
    expect(await app.fail('automations.add', { ...base, target: { kind: 'agent', agentId: reader.agentId }, limits: { freshWorktree: true } })).toBe(
      'A run that may only read changes no files: a fresh worktree is for runs that may edit.',
    );
    expect(await app.call('automations.list', {})).toEqual([]);
    // Within the ceiling: a read-only run of an agent that may ask.
    const fine = await app.call('automations.add', { ...base, target: { kind: 'agent', agentId: asking.agentId }, limits: { permissions: 'read_only' } });
    expect(fine.target).toEqual({ kind: 'agent', agentId: asking.agentId, name: 'Rowan', permissions: 'read_only' });
  });

  it('refuses what cannot run, saying why: a cron it cannot read, an unknown zone, room or agent, a mention with agent limits', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const schedule = (s: object, timeZone = 'Europe/Berlin') => ({ ...hourlyMention, trigger: { type: 'schedule', schedule: s, timeZone } });
    expect(await app.fail('automations.add', schedule({ kind: 'cron', expression: '0 25 * * *' }))).toMatch(/^The cron expression "0 25 \* \* \*" cannot be read: Invalid value for hour: 25\. It has five fields/);
    expect(await app.fail('automations.add', schedule({ kind: 'daily', time: '9am' }))).toMatch(/A time is HH:MM on the 24-hour clock/);
    expect(await app.fail('automations.add', schedule({ kind: 'daily', time: '09:00' }, 'Europe/Atlantis'))).toMatch(/"Europe\/Atlantis" is not a time zone this computer knows/);
    expect(await app.fail('automations.add', { ...hourlyMention, roomId: 'no-such-room' })).toMatch(/Room not found|not found/i);
    expect(await app.fail('automations.add', { ...hourlyMention, target: { kind: 'agent', agentId: 'agent_nope' } })).toMatch(/Managed agent not found|not found/i);
    expect(await app.fail('automations.add', { ...hourlyMention, limits: { freshWorktree: true } })).toMatch(/^A mention asks whichever agents it reaches/);
    expect(await app.fail('automations.add', { ...hourlyMention, target: { kind: 'mention', handle: 'Fir Tree!!' } })).toMatch(/A mention is a name a mention reaches/);
    expect(await app.call('automations.list', {})).toEqual([]);
  });
});

describe('a run that cannot start', () => {
  it('is recorded with why (its agent paused); nothing of it waits for a Resume', async () => {
    const clock = new ManualClock('2026-05-04T10:00:00Z');
    app = await startManagedApp({ provider: 'claude_code', clock });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    await app.call('agents.pause', { agentId: agent.agentId });
    const { automationId } = await app.call('automations.add', { ...hourlyMention, target: { kind: 'agent', agentId: agent.agentId } });
    clock.advance(HOUR);
    const a = app;
    await waitUntil(async () => (await a.call('automations.runs', { automationId })).length === 1, 5_000, 'the recorded run');
    expect((await a.call('automations.runs', { automationId }))[0]).toMatchObject({ status: 'skipped', reason: 'Juniper is paused', turns: [] });
    // Nothing was kept for the paused agent: its run is over, not waiting for a Resume.
    expect((await a.call('agents.list', {}))[0].waitingMessages).toBe(0);
    expect((await a.call('automations.list', {}))[0].running).toBe(false);
  });
});

describe('a deleted room', () => {
  it('takes its automations with it', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    await app.room('other-room');
    await app.call('automations.add', hourlyMention);
    const kept = await app.call('automations.add', { ...hourlyMention, name: 'Elsewhere', roomId: 'other-room' });
    await app.call('rooms.delete', { roomId: ROOM });
    const a = app;
    await waitUntil(async () => (await a.call('automations.list', {})).length === 1, 5_000, 'the automation to go');
    expect((await a.call('automations.list', {})).map((x) => x.automationId)).toEqual([kept.automationId]);
  });
});
