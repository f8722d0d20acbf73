// A team room across two machines in the window (issue 12): two `serve` instances with
// separate data folders on one throwaway PostgreSQL database, the window of machine B in
// real Chromium. The sidebar groups rooms by place with the team's state; a message an
// agent on machine A sends appears live in B's window; the person on B creates a room in
// the team and writes there, and A's agent reads it under the person's team name; the
// roster shows each agent's machine; the Add agent dialog lists the team's rooms.
import { hostname, userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPostgresSuites, startPostgres, type PgCluster } from '../support/postgres';
import { servedMachine, teamDataDir, teamEnv, TEAM, type ServedMachine } from '../support/teamMachines';
import { call, register } from '../mcp/workerHandles/tools';
import type { HelperClient } from '../support';
import { openApp, roomButton, type AppSession } from './lib/app';
import { managedCard, providersListed } from './lib/managed';
import { CLI_BIN } from '../main/agents/managedApp';
import { tempDir } from '../support';
import { saveShot } from './lib/shots';

let cluster: PgCluster;
let a: ServedMachine;
let b: AppSession;
let onA: HelperClient;
let alder: { worker_id: string };

describe.skipIf(!runPostgresSuites)('a team room in the windows of two machines', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
    const url = await cluster.createDatabase();
    a = await servedMachine('A', url);
    // The pinned CLIs first on its PATH (the app never looks in the checkout's node_modules/.bin).
    b = await openApp({ dataDir: await teamDataDir(), env: { ...teamEnv(url), PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` } });
    onA = await a.connect();
    const joined = await call(onA, 'join_room', { name: 'launch' });
    alder = await register(onA, { room_id: joined.room_id, registration_key: `alder-${process.pid}-4f7a9c2e81d6b035`, display_name: 'Alder' });
    await call(onA, 'send_message', { worker_id: alder.worker_id, text: 'Alder here, from machine A.' });
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    cluster?.stop();
  });

  it('groups the rooms by place and shows a message sent on A live in B\'s window', async () => {
    const { page } = b;
    const team = page.getByRole('region', { name: new RegExp(`^${TEAM}`) });
    await team.getByText('Connected').waitFor();
    await page.getByRole('heading', { name: 'This computer' }).waitFor();
    await team.getByRole('button', { name: 'launch' }).click();
    const timeline = page.getByRole('region', { name: 'Messages' });
    await timeline.getByText('Alder here, from machine A.').waitFor();

    await call(onA, 'send_message', { worker_id: alder.worker_id, text: 'Live from **A**, no reload.' });
    const live = timeline.getByRole('article').filter({ hasText: 'Live from A, no reload.' });
    await live.waitFor();
    expect(await live.getAttribute('aria-label')).toMatch(/^Alder, /);
    await saveShot(page, 'team-room-live');
    expect(b.problems).toEqual([]);
  });

  it('creates a room in the team from B; A\'s agent joins it and reads the person under their team name', async () => {
    const { page } = b;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'New room' }).click();
    const dialog = page.getByRole('dialog', { name: 'New room' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('retro');
    expect(await dialog.getByRole('combobox', { name: 'Place' }).inputValue()).toBe(TEAM);
    await dialog.getByRole('button', { name: 'Create room' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'retro' }).waitFor();
    const box = page.getByRole('combobox', { name: 'Message retro' });
    await box.fill('Retro at four, everyone.');
    await box.press('Enter');
    await page.getByRole('region', { name: 'Messages' }).getByText('Retro at four, everyone.').waitFor();

    const joined = await call(onA, 'join_room', { name: 'retro' });
    expect(joined).toMatchObject({ place: TEAM, created: false });
    const read = await call(onA, 'read_messages', { room_id: 'retro', limit: 5 });
    const said = read.messages.find((m: { text: string }) => m.text === 'Retro at four, everyone.');
    // Signed out, a person in a team room is user@machine.
    expect(said).toMatchObject({ source: 'human', sender: `${userInfo().username}@${hostname()}` });
    expect(await roomButton(page, 'retro').count()).toBe(1);
  });

  it('shows each agent\'s machine in the roster, and an agent held by the other machine as on another machine', async () => {
    const { page } = b;
    await roomButton(page, 'launch').click();
    await page.getByRole('tab', { name: 'Agents' }).click();
    const row = page.getByRole('tabpanel', { name: 'Agents' }).getByRole('listitem').filter({ hasText: 'Alder' });
    await row.getByText(hostname(), { exact: true }).waitFor();
    await row.getByText('Machine', { exact: true }).waitFor();
    await row.locator('.reachability-label').getByText('On another machine', { exact: true }).waitFor();
    await saveShot(page, 'team-room-roster');
    expect(b.problems).toEqual([]);
  });

  it('lists the team\'s rooms in the Add agent dialog, grouped by team, and adds a managed agent to one (issue 35)', async () => {
    const { page } = b;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Agents', exact: true }).click();
    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    const rooms = dialog.getByRole('combobox', { name: 'Room' });
    const group = rooms.locator('optgroup', { hasText: 'launch' });
    expect(await group.getAttribute('label')).toBe(`Team ${TEAM}`);
    expect(await group.locator('option').allTextContents()).toEqual(expect.arrayContaining(['launch', 'retro']));
    expect(await dialog.getByText(/No open rooms yet/).count()).toBe(0);

    await providersListed(dialog);
    await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).check();
    await dialog.getByRole('textbox', { name: 'Name in the room' }).fill('Juniper');
    await rooms.selectOption({ label: 'retro' });
    await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(tempDir('la-e2e-team-agent-'));
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    await managedCard(page, 'Juniper').getByText(/^retro ·/).waitFor();
    // Machine A's agent reads it joining the team's room.
    const read = await call(onA, 'read_messages', { room_id: 'retro', limit: 5 });
    expect(JSON.stringify(read.messages)).toContain('Juniper');
    expect(b.problems).toEqual([]);
  });
});
