// What holds an automation's runs in, with the REAL Claude Code against a scripted fake model (the
// model is the only fake): a failed run is a "Needs you" item until a run works; a run stops at
// its turn budget and its token budget (the turn that crosses it finishes, no more start); a
// run in a fresh worktree leaves its changes on a branch of its own, and one that changed
// nothing leaves nothing behind.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { RATE_LIMITED, callTool, identityIn, refuse, replyInRoom, say, writeInWorktree } from '../../support/fakeModels';
import { ManualClock } from '../../support/manualClock';
import { startManagedApp, waitUntil, type ManagedApp } from '../agents/managedApp';
import { runEnded } from './runEnded';

const ROOM = 'run-limits';
let app: ManagedApp | null = null;

afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

// Daily at the UTC time twelve hours from now, so its scheduled run never comes during a test: every
// run here is a Run now. (A fixed 06:00 ran by itself in a test that began in the seconds before it.)
const daily = { type: 'schedule', schedule: { kind: 'daily', time: new Date(Date.now() + 12 * 3_600_000).toISOString().slice(11, 16) }, timeZone: 'UTC', catchUp: 'once' } as const;

describe('automation runs that fail or reach a limit (fake model)', () => {
  it('a failed run is a "Needs you" item, closed by the next run that works', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const { automationId } = await app.call('automations.add', { name: 'Nightly', roomId: ROOM, target: { kind: 'agent', agentId: agent.agentId }, instructions: 'Check the build.', trigger: daily });
    rmSync(app.folder, { recursive: true, force: true });
    await app.call('automations.runNow', { automationId });
    const failed = await runEnded(app, automationId, 1);
    expect(failed).toMatchObject({ status: 'failed', turns: [1] });
    expect(failed.reason).toMatch(/^Its folder .+ no longer exists\./);
    const items = async () => (await app!.call('needsYou.list', {})).items.filter((i) => i.reason === 'automation_failed');
    await waitUntil(async () => (await items()).length === 1, 5_000, 'the Needs-you item');
    const [item] = await items();
    expect(item).toMatchObject({ title: 'Automation "Nightly" failed', from: 'Juniper' });
    expect(item.body).toMatch(/^Its run #1 \(Run now by .+\) failed: Its folder .+ no longer exists\./);

    mkdirSync(app.folder, { recursive: true });
    app.model.script.push('Juniper', ...replyInRoom('The build is green.'));
    await app.call('automations.runNow', { automationId });
    expect(await runEnded(app, automationId, 2)).toMatchObject({ status: 'done' });
    await waitUntil(async () => (await items()).length === 0, 5_000, 'the item to close');
  });

  it('stops a run at its turn budget: a rate-limited turn is not tried again past it', async () => {
    const clock = new ManualClock(Date.now());
    app = await startManagedApp({ provider: 'claude_code', clock, managedTurns: { rateLimitBackoffMs: [1_000] } });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const { automationId } = await app.call('automations.add', {
      name: 'Nightly', roomId: ROOM, target: { kind: 'agent', agentId: agent.agentId }, instructions: 'Check the build.', trigger: daily, limits: { maxTurns: 1 },
    });
    app.model.script.push('Juniper', refuse(RATE_LIMITED));
    await app.call('automations.runNow', { automationId });
    await app.turnEnded(agent.agentId, 1);
    const a = app;
    await waitUntil(async () => (await a.call('agents.list', {}))[0].retryAt !== null, 5_000, 'the retry');
    clock.advance(1_000);
    expect(await runEnded(a, automationId, 1)).toMatchObject({ status: 'stopped', reason: 'it used its 1 turn per run', turns: [1] });
    expect((await a.turns(agent.agentId)).map((t) => t.number)).toEqual([1]);
  });

  it('the turn that crosses the run token budget finishes, and no more start', async () => {
    const clock = new ManualClock(Date.now());
    app = await startManagedApp({ provider: 'claude_code', clock, managedTurns: { rateLimitBackoffMs: [1_000] } });
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const { automationId } = await app.call('automations.add', {
      name: 'Nightly', roomId: ROOM, target: { kind: 'agent', agentId: agent.agentId }, instructions: 'Check the build.', trigger: daily, limits: { maxTurns: 5, maxTokens: 1_000 },
    });
    // Ten answers of 120 tokens each (ANTHROPIC_USAGE), then a rate limit: the run is past 1,000 tokens.
    const register = callTool('register_agent_session', (r) => identityIn(r));
    app.model.script.push('Juniper', ...Array.from({ length: 10 }, () => register), refuse(RATE_LIMITED));
    await app.call('automations.runNow', { automationId });
    const first = await app.turnEnded(agent.agentId, 1);
    expect(first.inputTokens + first.outputTokens).toBeGreaterThanOrEqual(1_000);
    const a = app;
    await waitUntil(async () => (await a.call('agents.list', {}))[0].retryAt !== null, 5_000, 'the retry');
    clock.advance(1_000);
    const run = await runEnded(a, automationId, 1);
    expect(run).toMatchObject({ status: 'stopped', reason: 'it used its 1,000 tokens per run', turns: [1] });
    expect(run.inputTokens + run.outputTokens).toBe(first.inputTokens + first.outputTokens);
    expect((await a.turns(agent.agentId)).map((t) => t.number)).toEqual([1]);
  });

  it('runs each run in a fresh worktree: changes stay on the run\'s branch, a run without any leaves nothing', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=p@example.com', ...args], { cwd: app!.folder, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    writeFileSync(`${app.folder}/README.md`, '# Project\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'start');
    await app.room(ROOM);
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'edit' });
    const { automationId } = await app.call('automations.add', {
      name: 'Nightly report', roomId: ROOM, target: { kind: 'agent', agentId: agent.agentId }, instructions: 'Write the report.', trigger: daily, limits: { freshWorktree: true },
    });
    app.model.script.push('Juniper', writeInWorktree('report.md', '# Report\n'), say('Wrote the report.'));
    await app.call('automations.runNow', { automationId });
    const first = await runEnded(app, automationId, 1);
    expect(first, JSON.stringify(first)).toMatchObject({ status: 'done', branch: 'letagents/juniper-nightly-report-1' });
    // On the run's branch, not the agent's own worktree nor the person's checkout.
    const worktrees = git('worktree', 'list', '--porcelain');
    const runTree = /worktree (\S+)\nHEAD \S+\nbranch refs\/heads\/letagents\/juniper-nightly-report-1/.exec(worktrees)?.[1];
    expect(runTree && existsSync(`${runTree}/report.md`)).toBe(true);
    expect(existsSync(`${agent.workspace.path}/report.md`)).toBe(false);
    expect(existsSync(`${app.folder}/report.md`)).toBe(false);

    app.model.script.push('Juniper', say('Nothing to report.'));
    await app.call('automations.runNow', { automationId });
    expect(await runEnded(app, automationId, 2)).toMatchObject({ status: 'done', branch: null });
    expect(git('branch', '--list', 'letagents/juniper-nightly-report-2')).toBe('');
    expect(git('worktree', 'list')).not.toContain('nightly-report-2');
    // Two real Claude Code turns and two worktrees: 16-21 s alone, past 30 s on a loaded machine;
    // each run's own wait (runEnded) allows 60 s.
  }, 120_000);
});
