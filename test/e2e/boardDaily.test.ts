// The board as a daily tool (issue 16), with agents on real helper connections: at 1280 px
// every column with cards is on screen without sideways scrolling; a task's PR is a real
// link on its card and in its drawer; agents' status chips follow a task the person moves;
// a task in review is approved or sent back from "Needs you"; a cancel can be undone for
// 10 seconds, and leaves no trace when it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCursor, joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { card, column } from './lib/board';
import { saveShot } from './lib/shots';

const ROOM = 'board-daily';
const PR = 'https://github.com/acme/app/pull/12';
let app: AppSession;
let juniper: Agent;
let birch: Agent;
const ids: Record<string, string> = {};
/** A task's status as agents read it on the board. */
const statusOf = async (id: string): Promise<string> =>
  ((await juniper.call('get_board', { open_only: false })).tasks as Array<{ id: string; status: string }>).find((t) => t.id === id)!.status;

beforeAll(async () => {
  app = await openApp({ width: 1280, height: 800 });
  juniper = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Juniper' });
  birch = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Birch', clientName: 'codex' });
  const add = async (key: string, title: string) => (ids[key] = (await juniper.call('add_task', { title })).task.id);
  const accept = (key: string) => birch.call('update_task', { task_id: ids[key], status: 'accepted' });
  await add('proposed', 'Write the migration guide');
  for (const [key, title] of [['accepted', 'Tidy the fixtures'], ['assigned', 'Upgrade the linter'], ['working', 'Speed up the build'], ['blocked', 'Rotate the keys'], ['review', 'Fix the checkout total'], ['second', 'Trim the logs']]) {
    await add(key, title);
    await accept(key);
  }
  for (const key of ['assigned', 'working', 'blocked', 'review', 'second']) await juniper.call('claim_task', { task_id: ids[key] });
  for (const key of ['working', 'blocked']) await juniper.call('update_task', { task_id: ids[key], status: 'in_progress' });
  await juniper.call('update_task', { task_id: ids.blocked, status: 'blocked' });
  await juniper.call('complete_task', { task_id: ids.review, pr_url: PR });
  await juniper.call('complete_task', { task_id: ids.second });
  await birch.call('claim_task_review', { task_id: ids.review });
  await roomButton(app.page, ROOM).click();
  await app.page.getByRole('tab', { name: 'Board' }).click();
  await card(column(app.page, 'In review'), ids.review).waitFor();
}, 90_000);

afterAll(async () => {
  await Promise.all([juniper, birch].map((a) => a?.close()));
  await app?.close();
});

describe('the board at 1280 px', () => {
  it('shows every column with cards whole, without scrolling sideways', async () => {
    const { page } = app;
    const board = page.locator('.board');
    expect(await board.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const box = (await board.boundingBox())!;
    for (const name of ['Proposed', 'Accepted', 'Assigned', 'In progress', 'Blocked', 'In review']) {
      const r = (await column(page, name).boundingBox())!;
      expect(r.x, name).toBeGreaterThanOrEqual(box.x);
      expect(r.x + r.width, name).toBeLessThanOrEqual(box.x + box.width);
      expect(r.width, name).toBeGreaterThanOrEqual(140);
    }
    await saveShot(page, 'board-1280');
  });
});

describe('links', () => {
  it("makes a task's PR a real link on its card and in its drawer", async () => {
    const { page } = app;
    const onCard = card(column(page, 'In review'), ids.review).getByRole('link', { name: /^PR.* #12/ });
    expect(await onCard.getAttribute('href')).toBe(PR);
    await card(column(page, 'In review'), ids.review).getByRole('button', { name: 'Fix the checkout total' }).click();
    const drawer = page.getByRole('complementary', { name: new RegExp(`^${ids.review}:`) });
    const link = drawer.getByRole('link', { name: /#12/ });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(PR);
    expect(await drawer.getByText('No links yet.').count()).toBe(0);
    await saveShot(page, 'board-pr-links');
    await drawer.getByRole('button', { name: 'Close task' }).click();
  });
});

describe("agents' status after the person moves a task", () => {
  it('drops "reviewing task_N" from the header and the roster when the person moves it to Done', async () => {
    const { page } = app;
    const presence = page.getByRole('list', { name: /agents online/ });
    await presence.getByText(`reviewing ${ids.review}`).waitFor();
    await card(column(page, 'In review'), ids.review).getByRole('button', { name: `Move ${ids.review} to…` }).click();
    await page.getByRole('menuitem', { name: 'Done' }).click();
    await expect.poll(() => presence.innerText()).not.toContain(ids.review);
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('list').filter({ hasText: 'Juniper' }).first().waitFor();
    expect(await page.locator('.roster').innerText()).not.toContain(ids.review);
    await saveShot(page, 'board-status-after-done');
  });
});

describe('a task in review, from "Needs you"', () => {
  it('asks what should change before sending it back, then the holder hears it and the task is In progress', async () => {
    const { page } = app;
    // The holder waits for what concerns it, as an agent does: the note must reach it.
    const heard: string[] = [];
    const listening = (async () => {
      let cursor = await currentCursor(juniper);
      while (!heard.some((text) => text.endsWith('Keep the error lines, please.'))) {
        const woke = await juniper.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
        if (!woke.messages?.length) break;
        heard.push(...woke.messages.map((m: { text: string }) => m.text));
        cursor = woke.last_observed_message_id;
      }
    })();
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('article', { name: /Task in review from .*: Trim the logs/ });
    await item.getByRole('button', { name: 'Approve' }).waitFor();
    await item.getByRole('button', { name: 'Request changes' }).click();
    await item.getByRole('alert').getByText('Say what should change', { exact: false }).waitFor();
    await item.getByRole('textbox').fill('Keep the error lines, please.');
    await saveShot(page, 'needs-you-review-item');
    await item.getByRole('button', { name: 'Request changes' }).click();
    await item.waitFor({ state: 'detached' });
    await listening;
    expect(heard).toContain('@Juniper Keep the error lines, please.');
    expect(await statusOf(ids.second)).toBe('in_progress');
  });

  it('approves a task in review: it is Done', async () => {
    const { page } = app;
    await juniper.call('update_task', { task_id: ids.second, status: 'in_review' });
    const item = page.getByRole('article', { name: /Task in review from .*: Trim the logs/ });
    await item.getByRole('button', { name: 'Approve' }).click();
    await item.waitFor({ state: 'detached' });
    expect(await statusOf(ids.second)).toBe('done');
    expect(app.problems).toEqual([]);
  });
});

describe('cancelling a task', () => {
  it('can be undone for 10 seconds without a trace, and is done after them', async () => {
    const { page } = app;
    await roomButton(page, ROOM).click();
    await page.getByRole('tab', { name: 'Board' }).click();
    const proposed = () => card(column(page, 'Proposed'), ids.proposed);
    await proposed().getByRole('button', { name: 'Cancel' }).click();
    const bar = page.getByRole('list', { name: 'Can be undone' });
    await bar.getByText(`${ids.proposed} is now Cancelled.`).waitFor();
    await proposed().waitFor({ state: 'detached' });
    await saveShot(page, 'board-undo-cancel');
    await bar.getByRole('button', { name: 'Undo' }).click();
    await proposed().waitFor();
    await bar.waitFor({ state: 'detached' });
    expect(await statusOf(ids.proposed)).toBe('proposed');

    await proposed().getByRole('button', { name: 'Cancel' }).click();
    await bar.waitFor();
    // The bar goes when the 10 s to undo are over; then the cancel is stored.
    await bar.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => statusOf(ids.proposed), { timeout: 15_000 }).toBe('cancelled');
    // One event for the cancel that happened, none for the one taken back.
    await page.getByRole('tab', { name: 'Chat' }).click();
    // Runs of board events are folded (issue 27): open the newest run.
    const folded = page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: /^\d+ (board updates|room events)$/ });
    await folded.last().waitFor();
    await folded.last().click();
    await page.getByRole('region', { name: 'Messages' }).getByText(`${ids.proposed} moved from Proposed to Cancelled`).waitFor();
    expect(await page.getByRole('region', { name: 'Messages' }).getByText(`${ids.proposed} moved from Proposed to Cancelled`).count()).toBe(1);
    expect(app.problems).toEqual([]);
  }, 30_000);
});
