// The app by keyboard alone (issue 17), against agents on real helper connections: open a
// room from the sidebar, send a message, open a thread and reply, answer a "Needs you" item,
// move a card to another column, rename an agent, and search and jump to a result. Only
// page.keyboard drives the page (no pointer event ever reaches it); every stop shows a focus
// ring; closing a panel or dialog gives focus back; a dialog keeps Tab inside and Escape
// closes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, roomButton, type AppSession } from './lib/app';
import { card, column } from './lib/board';
import { BUSY_ROOM, seedBusyRoom, type BusyRoom } from './lib/busyRoom';
import { countPointerPresses, describeFocus, expectFocusRing, isFocused, pointerPresses, pressUntilFocused } from './lib/keyboard';
import { saveShot } from './lib/shots';

let app: AppSession;
let room: BusyRoom;

beforeAll(async () => {
  app = await openApp({ initScript: countPointerPresses });
  room = await seedBusyRoom(app.serve.dataDir);
  await roomButton(app.page, BUSY_ROOM).waitFor();
}, 60_000);

afterAll(async () => {
  await room?.close();
  await app?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'LetAgents' });
const timeline = () => app.page.getByRole('region', { name: 'Messages' });
const focused = () => app.page.locator(':focus');
const announced = () => app.page.locator('#announcements > *').allTextContents();

describe('keyboard only', () => {
  it('opens a room from the sidebar', async () => {
    const { page } = app;
    await pressUntilFocused(page, 'Tab', roomButton(page, BUSY_ROOM));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: BUSY_ROOM, level: 1 }).waitFor();
    await timeline().getByText('Should the changelog list the beta flags?').waitFor();
  });

  it('sends a message from the composer', async () => {
    const { page } = app;
    const composer = page.getByRole('combobox', { name: `Message ${BUSY_ROOM}` });
    await pressUntilFocused(page, 'Tab', composer);
    await page.keyboard.type('Keyboard only from here on.');
    await page.keyboard.press('Enter');
    await timeline().getByRole('article').filter({ hasText: 'Keyboard only from here on.' }).waitFor();
    expect(await isFocused(composer)).toBe(true);
    const seen = await room.atlas.call('read_messages', { limit: 5 });
    expect(JSON.stringify(seen)).toContain('Keyboard only from here on.');
  });

  it('moves through the timeline with the arrow keys, opens a thread and replies; Escape gives focus back to the message', async () => {
    const { page } = app;
    await pressUntilFocused(page, 'Shift+Tab', timeline());
    const question = timeline().getByRole('article').filter({ hasText: room.threadQuestion });
    // The proposed tasks fold into one line: ↑ stops on it, Enter opens it, ↓ reads its events, ↑ goes on past it.
    const fold = timeline().getByRole('button', { name: /^\d+ (board updates|room events)$/ });
    await pressUntilFocused(page, 'ArrowUp', fold, 10);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused().getAttribute('aria-expanded')).toBe('true');
    expect(await describeFocus(page)).toMatch(/^button “Hide \d+ (board updates|room events)”$/);
    await page.keyboard.press('ArrowDown');
    expect(await describeFocus(page)).toMatch(/^article “.+, (just now|\d+ min ago)”$/);
    expect(await focused().textContent()).toContain(room.taskIds[0]);
    await page.keyboard.press('ArrowUp');
    expect(await describeFocus(page)).toMatch(/^button “Hide \d+ (board updates|room events)”$/);
    await pressUntilFocused(page, 'ArrowUp', question, 20);
    expect(await question.getAttribute('aria-label')).toMatch(/^Birch, (just now|\d+ min ago)$/);
    await pressUntilFocused(page, 'Tab', question.getByRole('button', { name: 'Reply in thread' }), 5);
    await page.keyboard.press('Enter');
    const thread = page.getByRole('complementary', { name: 'Thread' });
    const reply = thread.getByRole('combobox', { name: 'Reply in thread' });
    await thread.waitFor();
    expect(await isFocused(reply)).toBe(true);
    await expectFocusRing(page);
    await page.keyboard.type('Agreed, flags with defaults.');
    await page.keyboard.press('Enter');
    await thread.getByText('2 replies').waitFor();
    await saveShot(page, 'keyboard-thread-reply');
    await page.keyboard.press('Escape');
    await thread.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(question)).toBe(true);
    await expectFocusRing(page);
  });

  it('answers a "Needs you" item in place; focus moves on to what is left', async () => {
    const { page } = app;
    await pressUntilFocused(page, 'Shift+Tab', nav().getByRole('button', { name: /Needs you/ }));
    await page.keyboard.press('Enter');
    const answer = page.getByRole('textbox', { name: 'Answer Cedar' });
    await pressUntilFocused(page, 'Tab', answer);
    await page.keyboard.type('Tuesday works; tell the on-call first.');
    await page.keyboard.press('Control+Enter');
    await answer.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(page.getByRole('heading', { name: 'Needs you', level: 1 }))).toBe(true);
    await expectFocusRing(page);
    const requests = await room.cedar.call('get_human_requests');
    expect(requests.requests[0]).toMatchObject({ status: 'answered', answer: { text: expect.stringContaining('Tuesday works') } });
  });

  it('moves a card to another column with "Move to…"; focus follows the card and the move is said once', async () => {
    const { page } = app;
    await pressUntilFocused(page, 'Shift+Tab', roomButton(page, BUSY_ROOM));
    await page.keyboard.press('Enter');
    await pressUntilFocused(page, 'Tab', page.getByRole('tab', { name: 'Chat' }));
    await page.keyboard.press('ArrowRight');
    expect(await isFocused(page.getByRole('tab', { name: 'Board' }))).toBe(true);
    const [taskId] = room.taskIds;
    await card(column(page, 'Proposed'), taskId).waitFor(); // the board has loaded
    await pressUntilFocused(page, 'Tab', card(column(page, 'Proposed'), taskId).getByRole('button', { name: `Move ${taskId} to…` }));
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: `Move ${taskId} to…` });
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Accepted', 'Cancelled']);
    expect(await isFocused(menu.getByRole('menuitem', { name: 'Accepted' }))).toBe(true);
    await expectFocusRing(page);
    await page.keyboard.press('Enter');
    const moved = card(column(page, 'Accepted'), taskId);
    await moved.waitFor();
    await expect.poll(() => isFocused(moved.getByRole('button', { name: `Move ${taskId} to…` }))).toBe(true);
    await expectFocusRing(page);
    expect((await room.atlas.call('get_board')).tasks.find((t: { id: string }) => t.id === taskId).status).toBe('accepted');
    // The toast and the board's own report are the same news: one line for the screen reader.
    await expect.poll(async () => (await announced()).filter((line) => line === `${taskId} is now Accepted.`).length).toBe(1);
    await page.waitForTimeout(500);
    expect((await announced()).filter((line) => line === `${taskId} is now Accepted.`)).toHaveLength(1);
  });

  it('renames an agent in a dialog that keeps Tab inside, closes with Escape and gives focus back', async () => {
    const { page } = app;
    await pressUntilFocused(page, 'Shift+Tab', nav().getByRole('button', { name: 'Agents', exact: true }));
    await page.keyboard.press('Enter');
    const actions = page.getByRole('button', { name: 'Actions for Atlas' });
    await pressUntilFocused(page, 'Tab', actions);

    // Escape first: nothing changes and focus is back on the Actions button.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter'); // "Rename…", focused when the menu opens
    const dialog = page.getByRole('dialog', { name: 'Rename Atlas' });
    await dialog.waitFor();
    const name = dialog.getByRole('textbox', { name: 'Name in this room' });
    expect(await isFocused(name)).toBe(true);
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await focused().evaluate((el) => !!el.closest('[role="dialog"]')), `${key} left the dialog for ${await describeFocus(page)}`).toBe(true);
      await expectFocusRing(page);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(actions)).toBe(true);

    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Atlas-release');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Atlas-release', { exact: true }).waitFor();
    await expect.poll(() => isFocused(page.getByRole('button', { name: 'Actions for Atlas-release' }))).toBe(true);
    expect((await room.atlas.call('send_message', { text: 'Renamed, thanks.' })).sender).toMatch(/^Atlas-release \| /);
  });

  it("opens the room's search from its header and jumps to a result, which then has focus", async () => {
    const { page } = app;
    await pressUntilFocused(page, 'Shift+Tab', roomButton(page, BUSY_ROOM));
    await page.keyboard.press('Enter');
    await timeline().waitFor();
    await pressUntilFocused(page, 'Tab', page.getByRole('button', { name: 'Search this room' }));
    await page.keyboard.press('Enter');
    const search = page.getByRole('searchbox', { name: 'Search messages in this room' });
    await expect.poll(() => isFocused(search)).toBe(true);
    await expectFocusRing(page);
    await page.keyboard.type('quarantined');
    const hit = page.getByRole('search').getByRole('button', { name: /quarantined/ });
    await hit.waitFor();
    await pressUntilFocused(page, 'Tab', hit, 5);
    await page.keyboard.press('Enter');
    const target = timeline().getByRole('article').filter({ hasText: '2 flaky tests quarantined' });
    await expect.poll(() => isFocused(target)).toBe(true);
    await expectFocusRing(page);
    await saveShot(page, 'keyboard-search-jump');
  });

  it('never used a pointer, and the page stayed clean', async () => {
    expect(await pointerPresses(app.page)).toBe(0);
    expect(app.problems).toEqual([]);
  });
});
