// A person's @all answered in turn (issue 34 item 2), as the person sees it in Chromium, with
// three real helper clients (MCP SDK over `letagents-desktop mcp`) as the room's agents: the
// room's "Reply to @all" setting changed by keyboard alone, the composer's "→ …" (asked of the
// app: the rule the post applies) following it, and the @all's receipts showing whose turn it
// is and what each agent did (answered, passed), live. axe in light and dark on the dialog and on the receipts.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPool, currentCursor, type Agent } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { expectNoViolationsInBothSchemes } from './lib/axe';
import { openChat } from './lib/chat';
import { isFocused, pressUntilFocused } from './lib/keyboard';
import { saveShot } from './lib/shots';

const ROOM = 'turns-at-all';
let app: AppSession;
const agents = agentPool(() => app.serve.dataDir);

beforeAll(async () => {
  app = await openApp();
}, 60_000);

afterAll(async () => {
  await agents.closeAll();
  await app?.close();
});

/** From the composer, by keyboard: the room's ⋯ menu → "Reply to @all: …" → the mode → Save; back in the composer. */
async function setReplyToAll(page: Page, from: string, to: 'In turn' | 'All at once', audit = false): Promise<void> {
  const menuButton = page.getByRole('button', { name: 'Room actions' });
  await pressUntilFocused(page, 'Shift+Tab', menuButton);
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: `Reply to @all: ${from}…` });
  await pressUntilFocused(page, 'ArrowDown', item);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Reply to @all in ${ROOM}` });
  // Focus starts on the room's mode now; the arrow keys move between the two.
  expect(await isFocused(dialog.getByRole('radio', { name: new RegExp(`^${from}`, 'i') }))).toBe(true);
  await page.keyboard.press(to === 'All at once' ? 'ArrowDown' : 'ArrowUp');
  expect(await dialog.getByRole('radio', { name: new RegExp(`^${to}`) }).isChecked()).toBe(true);
  if (audit) {
    await saveShot(page, 'reply-to-all-dialog');
    await expectNoViolationsInBothSchemes(page, 'the Reply to @all dialog');
  }
  await pressUntilFocused(page, 'Tab', dialog.getByRole('button', { name: 'Save' }));
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
}

describe('@all in turn', () => {
  it('changes the room setting by keyboard alone, and the composer says how an @all will be answered', async () => {
    const { page } = app;
    for (const name of ['Aspen', 'Birch', 'Cedar']) await agents.join(ROOM, name);
    await openChat(page, ROOM);
    const composer = page.getByRole('combobox', { name: `Message ${ROOM}` });
    const wakes = page.locator('.composer-wake');
    await composer.focus();
    await page.keyboard.type('@all what should we ship first?');
    // The default: one agent at a time.
    await wakes.filter({ hasText: '→ everyone, one at a time (3 agents)' }).waitFor();
    await composer.press('End');
    await page.keyboard.type(' @Cedar');
    await wakes.filter({ hasText: '→ Cedar now, then the others one at a time (2 agents)' }).waitFor();

    await setReplyToAll(page, 'in turn', 'All at once', true);
    expect(await page.getByRole('button', { name: 'Room actions' }).evaluate((el) => el === document.activeElement)).toBe(true);
    // Focus went back to the menu's button; on to the composer: the same draft, now all at once.
    await pressUntilFocused(page, 'Tab', composer);
    await wakes.filter({ hasText: '→ everyone (3 agents)' }).waitFor();

    await setReplyToAll(page, 'all at once', 'In turn');
    await pressUntilFocused(page, 'Tab', composer);
    await wakes.filter({ hasText: '→ Cedar now, then the others one at a time (2 agents)' }).waitFor();
    await composer.fill('');
    expect(app.problems).toEqual([]);
  }, 90_000);

  it("shows whose turn it is under the @all, and each agent's answer as it comes", async () => {
    const { page } = app;
    const byName = new Map<string, Agent>(['Aspen', 'Birch', 'Cedar'].map((name, i) => [name, agents.joined[i]]));
    const cursors = new Map<string, string | null>();
    for (const [name, agent] of byName) cursors.set(name, await currentCursor(agent));

    const composer = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await composer.fill('@all what should we ship first?');
    await composer.press('Enter');
    const message = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: '@all what should we ship first?' });
    const receipts = message.locator('.receipts-summary');
    // The order is the app's (sorted, rotated by the message's number): read it from the receipts.
    await receipts.filter({ hasText: /^\w+'s turn, \d:\d\d left · next: \w+, \w+$/ }).waitFor({ timeout: 20_000 });
    const [, first, second, third] = /^(\w+)'s turn, \d:\d\d left · next: (\w+), (\w+)$/.exec((await receipts.textContent())!)!;
    expect([first, second, third].sort()).toEqual(['Aspen', 'Birch', 'Cedar']);
    await expectNoViolationsInBothSchemes(page, 'the receipts of an @all in turn');
    await saveShot(page, 'all-in-turn-first');

    // The first agent's wait gets it now; it answers, and the receipts move on to the second.
    const got = await byName.get(first)!.call('wait_for_messages', { after_message_id: cursors.get(first), timeout: 20_000 });
    expect(got.messages.map((m: { text: string }) => m.text)).toContain('@all what should we ship first?');
    await byName.get(first)!.call('send_message', { text: 'The login fix first: it blocks the release.' });
    await receipts.filter({ hasText: new RegExp(`^${first} answered · ${second}'s turn, \\d:\\d\\d left · next: ${third}$`) }).waitFor({ timeout: 20_000 });
    await saveShot(page, 'all-in-turn-second');

    // Opened, the receipts list the order and each agent's state.
    await receipts.focus();
    await page.keyboard.press('Enter');
    const details = message.getByRole('tooltip');
    await details.getByText(`1. ${first}: answered at`).waitFor();
    await details.getByText(new RegExp(`^2\\. ${second}: its turn since [\\d:]+, until [\\d:]+ at the latest$`)).waitFor();
    await details.getByText(`3. ${third}: waiting for the agents before it`).waitFor();

    // The second agent gets it with the first one's answer, and passes: the third's turn, live.
    const secondAgent = byName.get(second)!;
    const handed = await secondAgent.call('wait_for_messages', { after_message_id: cursors.get(second), timeout: 20_000 });
    expect(JSON.stringify(handed)).toContain('The login fix first: it blocks the release.');
    await secondAgent.call('wait_for_messages', { after_message_id: handed.last_observed_message_id, pass: true, timeout: 1000 });
    await receipts.filter({ hasText: new RegExp(`^${first} answered · ${second} passed · ${third}'s turn, \\d:\\d\\d left$`) }).waitFor({ timeout: 20_000 });
    await details.getByText(`2. ${second}: passed at`).waitFor();
    await saveShot(page, 'all-in-turn-passed');
    expect(app.problems).toEqual([]);
  }, 90_000);
});
