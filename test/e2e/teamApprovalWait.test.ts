// A team room's "Ask me" managed agent seen from another machine, in real Chromium: machine A
// ("ada-laptop", an app in this process) runs Juniper with the REAL Claude Code CLI against a fake
// model server (the only fake); machine B is a `serve` whose window the person uses. The person
// on B mentions Juniper from the keyboard; while its command waits for A's person, B's room
// header and roster say so (whose answer, the tool, never the command), with no axe violation;
// once A allows, it clears in B's window and Juniper's answer appears there.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personLabelIn } from '../../src/main/auth/personLabel';
import type { NeedsYouItem } from '../../src/shared/types';
import { tempDir } from '../support';
import { callBuiltInTool, replyInRoom, startFakeModel, type FakeModel } from '../support/fakeModels';
import { runPostgresSuites, startPostgres, type PgCluster } from '../support/postgres';
import { inProcessMachine, teamDataDir, teamEnv, TEAM, type InProcessMachine } from '../support/teamMachines';
import { waitUntil } from '../support/waitUntil';
import { call, register } from '../mcp/workerHandles/tools';
import { CLI_BIN } from '../main/agents/managedApp';
import { machineApi as api } from '../main/teams/twoMachinesSetup';
import { openApp, roomButton, type AppSession } from './lib/app';
import { axeViolations } from './lib/axe';

const ROOM = 'launch';
let cluster: PgCluster;
let model: FakeModel;
let folder: string;
let a: InProcessMachine;
let b: AppSession;

describe.skipIf(!runPostgresSuites)('a team room\'s "Ask me" agent waiting for its owner, in the window of another machine', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase();
    const home = tempDir('la-e2e-team-ask-home-');
    model = await startFakeModel('claude_code', home);
    folder = join(tempDir('la-e2e-team-ask-work-'), 'project');
    mkdirSync(folder, { recursive: true });
    a = await inProcessMachine('A', url, { env: { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` }, home, machineName: 'ada-laptop' });
    b = await openApp({ dataDir: await teamDataDir(), env: teamEnv(url) });
    // An agent on A makes the team's room; then A adds Juniper, which asks before each command.
    const onA = await a.connect();
    const joined = await call(onA, 'join_room', { name: ROOM });
    await register(onA, { room_id: joined.room_id, registration_key: `alder-${process.pid}-9b2e4f7a1c6d3058`, display_name: 'Alder' });
    await api(a, 'agents.add', { provider: 'claude_code', folder, roomId: ROOM, name: 'Juniper', permissions: 'ask' });
  }, 60_000);
  afterAll(async () => {
    // A first: B's close ends what the tests spawned and takes their temporary folders.
    await a?.close();
    await b?.close();
    await model?.close();
    cluster?.stop();
  });

  it('says Juniper waits for A\'s person (never the command), then clears and shows its answer once A allows', async () => {
    const { page } = b;
    const file = join(folder, 'release-notes.md');
    model.script.push('Juniper', callBuiltInTool('Bash', { command: `touch ${file}`, description: 'Create the notes' }), ...replyInRoom('Created the release notes.'));
    await roomButton(page, ROOM).click();
    const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await box.focus();
    await page.keyboard.type('@Juniper please create the release notes');
    await page.keyboard.press('Enter');

    const ada = await personLabelIn(a.app.auth, TEAM);
    const waiting = `Juniper is waiting for ${ada} to approve a command (Bash)`;
    // The room header's chip, live.
    const chip = page.locator('.presence .agent-chip').filter({ hasText: 'Juniper' });
    await chip.getByText(waiting, { exact: true }).waitFor({ timeout: 60_000 });
    // The room's roster: who alone can answer, on which machine.
    await page.getByRole('tab', { name: 'Agents' }).click();
    const row = page.getByRole('tabpanel', { name: 'Agents' }).getByRole('listitem').filter({ hasText: 'Juniper' });
    await row.getByText(`${waiting}. Only ${ada} can allow or deny it, on ada-laptop.`).waitFor();
    expect(await page.content()).not.toContain('release-notes.md');
    expect(await axeViolations(page)).toEqual([]);

    // A's person allows it in A's Needs you; B's window clears and shows the answer.
    const { items } = await api<{ items: NeedsYouItem[] }>(a, 'needsYou.list', {});
    const asked = items.find((item) => item.approval?.state.phase === 'waiting')!;
    await api(a, 'approvals.decide', { number: asked.approval!.number, decision: 'allow_once' });
    await row.locator('.agent-approval-wait').waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('tab', { name: 'Chat' }).click();
    await page.getByRole('region', { name: 'Messages' }).getByText('Created the release notes.').waitFor({ timeout: 60_000 });
    await waitUntil(() => existsSync(file), 10_000, 'the command ran on A');
    expect(b.problems).toEqual([]);
  }, 180_000);
});
