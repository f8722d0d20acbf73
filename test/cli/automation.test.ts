// `letagents-desktop automation …` against a real `serve`: add (a mention every 15 minutes),
// list (table and --json), run now (the mention lands in the room), pause, resume, remove;
// usage errors (exit 2), the app's refusals (exit 1: the permission ceiling of a read-only
// managed agent, an unknown room or automation), changing nothing.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Automation } from '../../src/shared/model/automations';
import { cleanupSpawned, connectHelper, ensureCliBuilt, runCli, startServe, tempDir, toolJson, type ServeHandle } from '../support';
import { startFakeModel, type FakeModel } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';

let serve: ServeHandle;
let model: FakeModel;
let folder: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  await ensureCliBuilt();
  model = await startFakeModel('codex', tempDir('la-cli-automation-home-'));
  env = { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}`, TZ: 'Europe/Berlin' };
  serve = await startServe({ env });
  folder = join(tempDir('la-cli-automation-'), 'repo');
  mkdirSync(folder);
  const helper = await connectHelper(serve.dataDir);
  await helper.callTool({ name: 'join_room', arguments: { name: 'cli-room' } });
  await helper.close();
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  await model?.close();
  await cleanupSpawned();
});

const cli = (...args: string[]) => runCli(['automation', ...args, '--data-dir', serve.dataDir], { env, cwd: folder });
const listed = async (): Promise<Automation[]> => JSON.parse((await cli('list', '--json')).stdout);

describe('letagents-desktop automation', () => {
  it('adds, lists, runs, pauses, resumes and removes an automation through the running app', async () => {
    const added = await cli('add', '--room', 'cli-room', '--name', 'Standup', '--mention', 'agents', '--every', '15m', '--instructions', 'Say what you work on.');
    expect(added.stderr).toBe('');
    expect(added.stdout).toMatch(/^Added "Standup" in cli-room: every 15 minutes, mentioning @agents\. Next run \d{4}-\d\d-\d\d \d\d:\d\d\.\n$/);
    const [automation] = await listed();
    expect(automation).toMatchObject({ name: 'Standup', state: 'active', triggerText: 'Every 15 minutes', target: { kind: 'mention', handle: 'agents' }, limits: { maxTurns: 3, maxTokens: null } });
    expect((await cli('list')).stdout).toMatch(/^NAME\s+TRIGGER\s+TARGET\s+ROOM\s+STATE\s+NEXT RUN\s+LAST RUN\s+ID\nStandup\s+Every 15 minutes\s+mentioning @agents\s+cli-room\s+Active\s+\d{4}-/);

    const ran = await cli('run', 'standup');
    expect(ran).toMatchObject({ code: 0, stdout: '"Standup": Active; run #1 done\n' });
    const helper = await connectHelper(serve.dataDir);
    await helper.callTool({ name: 'join_room', arguments: { name: 'cli-room' } });
    const read = toolJson(await helper.callTool({ name: 'read_messages', arguments: { room_id: 'cli-room' } })) as { messages: Array<{ text: string }> };
    expect(read.messages.map((m) => m.text)).toContain('@agents Say what you work on.\n\n(Automation "Standup": Run now by ' + read.messages.at(-1)!.text.split('Run now by ')[1]);
    await helper.close();

    expect((await cli('pause', 'Standup')).stdout).toBe('"Standup": Paused\n');
    expect((await listed())[0]).toMatchObject({ state: 'paused', nextRunAt: null });
    expect((await cli('resume', automation.automationId)).stdout).toBe('"Standup": Active\n');
    expect((await cli('remove', 'Standup')).stdout).toBe('Removed "Standup".\n');
    expect(await listed()).toEqual([]);
  }, 60_000);

  it('takes a schedule in a time zone, a room event and a pull-request event', async () => {
    await cli('add', '--room', 'cli-room', '--name', 'Morning', '--mention', 'agents', '--weekdays', '09:30', '--time-zone', 'America/New_York', '--catch-up', 'skip', '--instructions', 'Triage.');
    await cli('add', '--room', 'cli-room', '--name', 'Review', '--mention', 'Reviewer', '--on', 'task-status:in-review', '--instructions', 'Review it.');
    await cli('add', '--room', 'cli-room', '--name', 'CI', '--mention', 'agents', '--on', 'pr-check-failed', '--instructions', 'Fix CI.');
    const byName = Object.fromEntries((await listed()).map((a) => [a.name, a]));
    expect(byName.Morning).toMatchObject({ trigger: { type: 'schedule', schedule: { kind: 'weekdays', time: '09:30' }, timeZone: 'America/New_York', catchUp: 'skip' }, triggerText: 'Every weekday at 09:30 (America/New_York)' });
    expect(byName.Review).toMatchObject({ trigger: { type: 'task_status', status: 'in_review' }, triggerText: 'When a task enters In review', nextRunAt: null });
    // Signed out of GitHub: it does nothing, and says so.
    expect(byName.CI.notice).toMatch(/^Not signed in to GitHub: it does nothing until you sign in/);
    for (const a of Object.values(byName)) await cli('remove', a.automationId);
  }, 60_000);

  const base = ['add', '--room', 'cli-room', '--name', 'X', '--mention', 'agents', '--instructions', 'Do it.'];

  it('explains bad input (exit 2), changing nothing', async () => {
    expect(await cli(...base)).toMatchObject({ code: 2, stderr: expect.stringContaining('give one of --every, --daily, --weekdays, --cron and --on') });
    expect(await cli(...base, '--every', '15m', '--daily', '09:00')).toMatchObject({ code: 2, stderr: expect.stringContaining('give one of') });
    expect(await cli(...base, '--every', 'often')).toMatchObject({ code: 2, stderr: expect.stringContaining('--every takes a number with m, h or d') });
    expect(await cli(...base, '--on', 'task-status:later')).toMatchObject({ code: 2, stderr: expect.stringContaining('--on task-status: takes one of proposed') });
    expect(await cli('add', '--room', 'cli-room', '--name', 'X', '--every', '1h', '--instructions', 'x')).toMatchObject({ code: 2, stderr: expect.stringContaining('give --agent AGENT or --mention NAME') });
    expect(await listed()).toEqual([]);
  }, 60_000);

  it("says the app's refusals (exit 1): a schedule it cannot read, an unknown room or automation, more than the agent may", async () => {
    expect(await cli(...base, '--daily', '25:00')).toMatchObject({ code: 1, stderr: expect.stringContaining('A time is HH:MM on the 24-hour clock') });
    expect(await cli(...base, '--cron', '0 9 * *')).toMatchObject({ code: 1, stderr: expect.stringContaining('The cron expression "0 9 * *" has 4 fields; it needs five: minute hour day-of-month month day-of-week') });
    expect(await cli('add', '--room', 'no-such-room', '--name', 'X', '--mention', 'agents', '--every', '1h', '--instructions', 'x')).toMatchObject({ code: 1, stderr: 'letagents-desktop automation: Room not found.\n' });
    expect(await cli('pause', 'Nobody')).toMatchObject({ code: 1, stderr: expect.stringContaining('no automation is named "Nobody"') });

    // A read-only managed agent: an automation may not let it edit.
    const agent = await runCli(['agent', 'add', '--room', 'cli-room', '--name', 'Juniper', '--provider', 'codex', '--data-dir', serve.dataDir], { env, cwd: folder });
    expect(agent.code).toBe(0);
    const ceiling = await cli('add', '--room', 'cli-room', '--name', 'Fixer', '--agent', 'Juniper', '--every', '1h', '--instructions', 'Fix things.', '--permissions', 'edit');
    expect(ceiling).toMatchObject({ code: 1, stderr: 'letagents-desktop automation: Juniper may only read its folder: an automation cannot let it edit files in its folder. Choose read its folder or less.\n' });
    expect(await listed()).toEqual([]);
    const within = await cli('add', '--room', 'cli-room', '--name', 'Reader', '--agent', 'juniper', '--daily', '08:00', '--instructions', 'Read the changelog.', '--max-turns', '2', '--max-tokens', '50000');
    expect(within.stdout).toMatch(/^Added "Reader" in cli-room: every day at 08:00 \(Europe\/Berlin\), for Juniper\./);
    expect((await listed())[0].limits).toEqual({ maxTurns: 2, maxTokens: 50_000, permissions: null, freshWorktree: false });
  }, 90_000);
});
