// What a screen reader hears in real Chromium (issue 17), with agents on real helper
// connections: a burst of messages in the open room is one polite announcement, a task an
// agent moves on the open board is said once, so is a "Needs you" arrival, and the timeline
// is a list of messages named by author and time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { card, column } from './lib/board';
import { saveShot } from './lib/shots';

const ROOM = 'standup';
/** The page's batch window for new messages (useMessageAnnouncements.ts BATCH_MS). */
const BATCH_MS = 2_000;
let app: AppSession;
let atlas: Agent;
let birch: Agent;

beforeAll(async () => {
  app = await openApp();
  atlas = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Atlas' });
  birch = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Birch', clientName: 'codex' });
  await atlas.call('send_message', { text: 'Good morning.' });
  await roomButton(app.page, ROOM).click();
  await app.page.getByRole('region', { name: 'Messages' }).getByText('Good morning.').waitFor();
}, 60_000);

afterAll(async () => {
  await atlas?.close();
  await birch?.close();
  await app?.close();
});

const region = () => app.page.locator('#announcements');
const heard = () => region().locator('p').allTextContents();

describe('the live region', () => {
  it('is polite, and a burst of messages is one announcement: "3 new messages from Atlas and Birch"', async () => {
    expect(await region().getAttribute('aria-live')).toBe('polite');
    const before = (await heard()).length;
    // The page's clock stands still while the three arrive: the batch window they fall in is the
    // page's own 2 s, however long three round trips through the helpers take on a loaded machine.
    await app.page.clock.install();
    await app.page.clock.pauseAt(Date.now() + 1_000);
    await atlas.call('send_message', { text: 'Branch is cut.' });
    await birch.call('send_message', { text: 'CI is green on it.' });
    await atlas.call('send_message', { text: 'Tagging v2.4.0 now.' });
    await app.page.getByRole('region', { name: 'Messages' }).getByText('Tagging v2.4.0 now.').waitFor();
    expect((await heard()).slice(before), 'nothing said before the window closes').toEqual([]);
    await app.page.clock.runFor(BATCH_MS);
    await app.page.clock.resume();
    await expect.poll(async () => (await heard()).slice(before), { timeout: 15_000 }).toEqual(['3 new messages from Atlas and Birch']);
    await app.page.waitForTimeout(BATCH_MS + 500); // a whole batch window later, still one line
    expect((await heard()).slice(before)).toEqual(['3 new messages from Atlas and Birch']);
  });

  it('names each message in the timeline list by author and time', async () => {
    const list = app.page.getByRole('region', { name: 'Messages' }).getByRole('list').first();
    const items = list.locator(':scope > [role="listitem"]');
    expect(await items.count()).toBeGreaterThanOrEqual(4);
    const named = await app.page.getByRole('region', { name: 'Messages' }).getByRole('article', { name: /^(Atlas|Birch), (just now|\d+ min ago)$/ }).count();
    expect(named).toBeGreaterThanOrEqual(4);
  });

  it('says once that an agent moved a task on the open board', async () => {
    const { page } = app;
    const added = await atlas.call('add_task', { title: 'Write the upgrade notes' });
    const taskId = added.task.id as string;
    await page.getByRole('tab', { name: 'Board' }).click();
    await card(column(page, 'Proposed'), taskId).getByRole('button', { name: 'Accept' }).click();
    await card(column(page, 'Accepted'), taskId).waitFor();
    await birch.call('claim_task', { task_id: taskId });
    await card(column(page, 'Assigned'), taskId).waitFor();
    const said = (line: string) => heard().then((lines) => lines.filter((l) => l === line).length);
    await expect.poll(() => said(`${taskId} is now Assigned.`)).toBe(1);
    await page.waitForTimeout(500); // a bounded moment for a repeat that must not come
    expect(await said(`${taskId} is now Accepted.`)).toBe(1);
    expect(await said(`${taskId} is now Assigned.`)).toBe(1);
  });

  it('says once that something new needs the person, wherever they are', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Settings' }).click();
    await birch.call('request_human_input', { client_id: 'sr-ask-rollback', category: 'approval', title: 'May I roll back the canary?', body: 'Error rate doubled.' });
    const line = 'Needs you: Approval from Birch: May I roll back the canary?';
    await expect.poll(() => heard()).toContain(line);
    await birch.call('send_message', { text: 'Waiting for your call.' }); // more events, no repeat
    await page.waitForTimeout(500); // a bounded moment for a repeat that must not come
    expect((await heard()).filter((l) => l === line)).toHaveLength(1);
    await saveShot(page, 'screen-reader-needs-you');
    expect(app.problems).toEqual([]);
  });
});
