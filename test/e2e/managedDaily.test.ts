// Managed agents in daily use, round 3 (issue 35), in Chromium against a real `serve` whose
// Claude Code is the real CLI talking to a fake model server (the only fake): the Add dialog
// fits its width and checks the name as it is typed, with "Work in the folder itself" under
// the permission that causes it; an idle agent reads Idle, and a paused one keeps its chip
// (Paused) while a mention to it offers Resume in its receipt; the activity log says tool calls
// in words without the worktree's path; Open folder in a browser tab says where the folder is;
// merging its branch is said in the room; the roster counts the managed agent and, once
// removed, lists it under Past agents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyInRoom, writeInWorktree } from '../support/fakeModels';
import { roomButton } from './lib/app';
import { openChat, postAsPerson } from './lib/chat';
import { managedCard, openManagedApp, providersListed, type ManagedServe } from './lib/managed';
import { saveShot } from './lib/shots';

const ROOM = 'daily-managed';
let served: ManagedServe;

beforeAll(async () => {
  served = await openManagedApp('managed-daily', ROOM, { repo: true });
}, 60_000);

afterAll(async () => {
  await served?.close();
});

const nav = () => served.app.page.getByRole('navigation', { name: 'LetAgents' });
const chip = (name: string) => served.app.page.locator('.presence .agent-chip').filter({ hasText: name });

describe('a managed agent, day to day', () => {
  it('is added through a dialog that fits and checks its name as typed; it reads Idle, and Paused in the header', async () => {
    const { page } = served.app;
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await providersListed(dialog);
    await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).check();
    const name = dialog.getByRole('textbox', { name: 'Name in the room' });
    await name.fill('Fir Tree');
    // Said before any submit, by the mention parser's rule.
    await dialog.getByRole('alert').filter({ hasText: '"Fir Tree" cannot be mentioned' }).waitFor();
    await name.fill('Juniper');
    await dialog.getByRole('alert').waitFor({ state: 'detached' });
    await dialog.getByRole('combobox', { name: 'Room' }).selectOption(ROOM);
    await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(served.folder);
    const permissions = dialog.getByRole('group', { name: 'What it may do outside LetAgents' });
    await permissions.getByRole('radio', { name: /Edit files in the folder/ }).check();
    await permissions.getByRole('checkbox', { name: /Work in the folder itself/ }).waitFor();
    // Nothing in the dialog is wider than its box (its last row was, by 14 px at this width).
    const sideways = await dialog.evaluate((el) =>
      [el, ...el.querySelectorAll('*')].filter((e) => e.tagName !== 'OPTION' && e.scrollWidth > e.clientWidth + 1).map((e) => `${e.tagName}.${e.className} ${e.scrollWidth - e.clientWidth}`),
    );
    expect(sideways).toEqual([]);
    await saveShot(page, 'managed-add-dialog');
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = managedCard(page, 'Juniper');
    await card.getByText('Idle', { exact: true }).waitFor();

    await roomButton(page, ROOM).click();
    await chip('Juniper').getByText('Idle', { exact: true }).waitFor();
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    await card.getByRole('button', { name: 'Pause' }).click();
    await card.getByText('Paused', { exact: true }).waitFor();
    await roomButton(page, ROOM).click();
    // Paused, it keeps its chip (it used to disappear from the header).
    await chip('Juniper').getByText('Paused', { exact: true }).waitFor();
    expect(served.app.problems).toEqual([]);
  });

  it('says in the receipt of a mention that the agent is paused, and Resume there gives it its turn', async () => {
    const { app, model } = served;
    const { page } = app;
    model.script.push('Juniper', writeInWorktree('notes.md', '# Release notes\nReady.\n'), ...replyInRoom('The release notes are in notes.md.'));
    await openChat(page, ROOM);
    await postAsPerson(page, ROOM, '@Juniper are the release notes ready?');
    const asked = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'are the release notes ready?' });
    await asked.getByRole('button', { name: 'Not seen yet: waiting for Juniper', exact: true }).waitFor({ timeout: 20_000 });
    expect(await asked.locator('.receipts').textContent()).toContain('Not seen yet: waiting for Juniper · paused: Resume');
    await saveShot(page, 'managed-paused-receipt');
    await asked.getByRole('button', { name: 'Resume Juniper' }).click();
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'The release notes are in notes.md.' }).waitFor({ timeout: 60_000 });
    await asked.getByRole('button', { name: /^Seen by Juniper/ }).waitFor({ timeout: 20_000 });
    expect(app.problems).toEqual([]);
  }, 120_000);

  it('shows its tool calls in words, without the worktree path, and Open folder says where the folder is', async () => {
    const { page } = served.app;
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    const card = managedCard(page, 'Juniper');
    await card.getByText('Idle', { exact: true }).waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Activity' }).click();
    const turn = card.getByRole('list', { name: 'Turns, newest first' }).getByRole('listitem').filter({ hasText: 'Turn 1' });
    await turn.getByText('Write notes.md', { exact: true }).waitFor({ timeout: 30_000 });
    await turn.getByText('send_message: "The release notes are in notes.md."', { exact: true }).waitFor();
    const worktree = (await card.locator('.managed-workspace .managed-folder').textContent())!;
    const logged = (await turn.locator('.activity-entries').textContent())!;
    expect(logged).not.toContain(worktree);
    expect(logged).not.toContain('{"');
    await saveShot(page, 'managed-activity-words');

    await card.getByRole('button', { name: 'Changes' }).click();
    const changes = card.getByRole('region', { name: 'Changes of Juniper' });
    await changes.getByRole('heading', { name: 'notes.md' }).waitFor();
    await changes.getByRole('button', { name: 'Open folder' }).click();
    const said = changes.getByRole('status').filter({ hasText: 'cannot open the folder' });
    await said.waitFor();
    expect(await said.locator('code').textContent()).toBe(worktree);
    await said.getByRole('button', { name: 'Copy folder path' }).waitFor();
    expect(served.app.problems).toEqual([]);
  }, 90_000);

  it('says in the room that the person merged its branch', async () => {
    const { page } = served.app;
    const changes = managedCard(page, 'Juniper').getByRole('region', { name: 'Changes of Juniper' });
    await changes.getByRole('button', { name: 'Merge into main' }).click();
    await changes.getByRole('status').filter({ hasText: 'Merged letagents/juniper into main.' }).waitFor();
    await openChat(page, ROOM);
    await page.getByRole('region', { name: 'Messages' }).getByText(/merged Juniper's branch letagents\/juniper into main \([0-9a-f]{7}\)\./).waitFor();
    expect(served.app.problems).toEqual([]);
  });

  it('counts the managed agent in the roster, and once removed lists it under Past agents', async () => {
    const { page } = served.app;
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    const roster = page.locator('.roster');
    // Cedar (connected over MCP) and Juniper (managed).
    await roster.getByRole('status').filter({ hasText: '2 agents: 1 online, 1 managed' }).waitFor();
    const card = managedCard(page, 'Juniper');
    await card.getByRole('button', { name: 'Remove…' }).click();
    // Its work is merged: removing it takes its worktree and branch without asking again.
    await page.getByRole('dialog', { name: 'Remove Juniper?' }).getByRole('button', { name: 'Remove' }).click();
    await card.waitFor({ state: 'detached' });
    await roster.getByRole('status').filter({ hasText: '1 agent: 1 online' }).waitFor();
    const past = roster.locator('details.roster-past');
    await past.getByText('Past agents (1): disconnected or removed').click();
    await past.getByRole('list', { name: 'Past agents' }).getByText('Juniper', { exact: true }).waitFor();
    expect(await roster.getByRole('list', { name: 'Agents', exact: true }).getByText('Juniper', { exact: true }).count()).toBe(0);
    await saveShot(page, 'roster-past-agents');
    expect(served.app.problems).toEqual([]);
  });
});
