// Search across every room and the words the app uses everywhere (issue 16), with agents on
// real helper connections: Ctrl+K searches all rooms with results grouped by room, and
// choosing one opens that room at the message, highlighted, uncovered and focused, even far
// up the room; one display form of a room's name (sidebar, header, Needs you, search); one
// label per status, room events included; one format for time, exact on hover.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { isFocused } from './lib/keyboard';
import { saveShot } from './lib/shots';

const REPO = 'github.com/acme/checkout';
const REPO_TITLE = 'acme/checkout';
let app: AppSession;
let juniper: Agent;
let birch: Agent;
let cedar: Agent;

beforeAll(async () => {
  app = await openApp();
  juniper = await joinAgent(app.serve.dataDir, { room: REPO, name: 'Juniper' });
  birch = await joinAgent(app.serve.dataDir, { room: REPO, name: 'Birch', clientName: 'codex' });
  cedar = await joinAgent(app.serve.dataDir, { room: 'ops', name: 'Cedar', clientName: 'cursor' });
  await juniper.call('send_message', { text: 'The flamingo deploy plan: canary first, then everyone.' });
  for (let i = 1; i <= 110; i++) await juniper.call('send_message', { text: `Build log line ${i}.` });
  const task = (await juniper.call('add_task', { title: 'Ship the checkout fix' })).task.id;
  await birch.call('update_task', { task_id: task, status: 'accepted' });
  await juniper.call('claim_task', { task_id: task });
  await juniper.call('update_task', { task_id: task, status: 'in_progress' });
  await juniper.call('update_task', { task_id: task, status: 'in_review' });
  await juniper.call('request_human_input', { client_id: 'words-ask', category: 'approval', title: 'Merge on Friday?', body: 'It is reviewed.' });
  await cedar.call('send_message', { text: 'flamingo rollback is ready too.' });
}, 120_000);

afterAll(async () => {
  await Promise.all([juniper, birch, cedar].map((a) => a?.close()));
  await app?.close();
});

const rooms = (page: Page) => page.getByRole('list', { name: 'Rooms' }).getByRole('button');

describe('search of every room (Ctrl+K)', () => {
  it('groups results by room in the sidebar\'s order, and opens the chosen message in its room, visible and focused', async () => {
    const { page } = app;
    await roomButton(page, 'ops').click();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search all rooms' });
    const box = dialog.getByRole('searchbox', { name: 'Search messages in every room' });
    await expect.poll(() => isFocused(box)).toBe(true);
    await box.fill('flamingo');
    await dialog.getByRole('status').getByText('2 matches in 2 rooms').waitFor();
    const sidebarOrder = await rooms(page).locator('.nav-label').allTextContents();
    const groups = await dialog.getByRole('heading', { level: 3 }).allTextContents();
    expect(groups).toEqual(sidebarOrder.filter((name) => groups.includes(name)));
    expect([...groups].sort()).toEqual([REPO_TITLE, 'ops']);
    await saveShot(page, 'search-all-rooms');

    // ↓ from the field reaches the results; Enter on the one far up the repository room.
    const hit = dialog.getByRole('region', { name: REPO_TITLE }).getByRole('button', { name: /flamingo deploy plan/ });
    await box.press('ArrowDown');
    for (let i = 0; i < 3 && !(await isFocused(hit)); i++) await page.keyboard.press('ArrowDown');
    expect(await isFocused(hit)).toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: REPO_TITLE }).waitFor();
    const target = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'The flamingo deploy plan' });
    await target.waitFor();
    await expect.poll(() => target.getAttribute('class')).toContain('message-highlight');
    const uncovered = () =>
      target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
    await expect.poll(uncovered).toBe(true);
    await expect.poll(() => isFocused(target)).toBe(true);
    await saveShot(page, 'search-all-rooms-jump');
    expect(app.problems).toEqual([]);
  });
});

describe('the same words everywhere', () => {
  it('names a repository room owner/repo in the sidebar, its header and Needs you', async () => {
    const { page } = app;
    await roomButton(page, REPO_TITLE).waitFor();
    expect(await rooms(page).locator('.nav-label').allTextContents()).not.toContain(REPO);
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('article', { name: /Merge on Friday\?/ });
    await item.waitFor();
    // It says what Juniper wants of you (issue 27), then where: "Juniper asks you, in owner/repo".
    expect((await item.innerText()).replace(/\s+/g, ' ')).toMatch(new RegExp(`Juniper [a-z ]+, in ${REPO_TITLE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  });

  it('shows one label per status, in room events too, never the ids agents use', async () => {
    const { page } = app;
    await roomButton(page, REPO_TITLE).click();
    // Runs of board events are folded (issue 27): open them.
    const fold = page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: /^\d+ (board updates|room events)$/ }).first();
    await fold.waitFor();
    await fold.click();
    const event = page.getByRole('region', { name: 'Messages' }).getByText('task_1 moved from In progress to In review by Juniper.');
    await event.waitFor();
    // What each tab shows once it has loaded, before its words are read.
    const shows = { Chat: 'task_1 moved from In progress to In review by Juniper.', Board: 'Ship the checkout fix', Agents: 'Juniper' };
    for (const [tab, loaded] of Object.entries(shows)) {
      await page.getByRole('tab', { name: tab }).click();
      await page.locator(`#room-panel[aria-labelledby="room-tab-${tab.toLowerCase()}"]`).getByText(loaded).first().waitFor();
      const text = await page.locator('main').innerText();
      expect(text, `${tab} shows a status id`).not.toMatch(/\b(in_progress|in_review)\b/);
    }
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('region', { name: 'In review', exact: true }).getByText('Ship the checkout fix').waitFor();
  });

  it('writes every time the same way, relative within a day, with the exact time on hover', async () => {
    const { page } = app;
    const views = [
      ...['Chat', 'Board'].map((tab) => () => page.getByRole('tab', { name: tab }).click()),
      () => page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: /Needs you/ }).click(),
    ];
    for (const [tab, open] of views.entries()) {
      await open();
      await page.locator('main time').first().waitFor({ state: 'attached' });
      const times = await page.locator('main time').evaluateAll((els) => els.map((el) => ({ text: el.textContent ?? '', title: el.getAttribute('title') ?? '' })));
      expect(times.length, `view ${tab}`).toBeGreaterThan(0);
      for (const { text, title } of times) {
        expect(text.replace(/^last /, '')).toMatch(/^(just now|\d+ min ago|\d+ h ago)$/);
        expect(title).toMatch(/\d{1,2}:\d\d:\d\d/); // the exact time, to the second
      }
    }
    await saveShot(page, 'same-words-everywhere');
    expect(app.problems).toEqual([]);
  });
});
