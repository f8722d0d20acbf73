// Notices on a 360×740 phone never cover the tab bar (issue 37's phone page): a real `serve` with
// four automations added from the command line, and a phone (Chromium with a Pixel 7's touch,
// at 360×740) paired by the link `phone pair` prints. Pausing all four at once makes four notices:
// two show, above the tab bar and outside the page's content, the other two wait their turn
// ("2 more notices"); every tab's centre is its own button and a tap on it works; each notice was
// said to screen readers; each can be dismissed by touch and by keyboard, and the tab bar stays
// reachable by keyboard; axe finds nothing in light or dark with the notices showing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cleanupSpawned, ensureCliBuilt, runCli, startServe, type ServeHandle } from '../support';
import { joinAgent, type Agent } from './lib/agents';
import { expectNoViolationsInBothSchemes } from './lib/axe';
import { isFocused, pressUntilFocused } from './lib/keyboard';
import { pairedPhone, type Phone } from './lib/phone';

const ROOM = 'night-shift';
const NAMES = ['Standup', 'Dependency check', 'Nightly build', 'Weekly notes'];
const paused = (name: string) => `${name}: Paused: no runs until you resume it.`;
let serve: ServeHandle;
let cedar: Agent;
let phone: Phone;

beforeAll(async () => {
  await ensureCliBuilt();
  serve = await startServe();
  cedar = await joinAgent(serve.dataDir, { room: ROOM, name: 'Cedar' });
  for (const name of NAMES) {
    const added = await runCli(['automation', 'add', '--room', ROOM, '--name', name, '--mention', 'agents', '--every', '1h', '--instructions', 'Say what you work on.', '--data-dir', serve.dataDir]);
    expect(added.stderr).toBe('');
  }
  phone = await pairedPhone(serve.dataDir, { width: 360, height: 740 });
}, 90_000);

afterAll(async () => {
  await phone?.close();
  await cedar?.close();
  await serve?.stop();
  await cleanupSpawned();
});

/** What a notice covers: the tab bar, or the page above it (its content and controls). */
function coverage(page: Page) {
  return page.evaluate(() => {
    const nav = document.querySelector('nav.phone-nav')!.getBoundingClientRect();
    const main = document.querySelector('main')!.getBoundingClientRect();
    const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const notices = [...document.querySelectorAll('.toasts .toast')].map((toast) => ({ text: toast.textContent ?? '', box: toast.getBoundingClientRect() }));
    // The element a finger lands on at each tab's centre must be that tab (or inside it).
    const tabs = [...document.querySelectorAll<HTMLElement>('nav.phone-nav button')].map((tab) => {
      const box = tab.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return { tab: tab.textContent?.trim() ?? '', hitsItself: hit !== null && tab.contains(hit) };
    });
    return {
      shown: notices.map((n) => n.text),
      overTabBar: notices.filter((n) => overlaps(n.box, nav)).map((n) => n.text),
      overPage: notices.filter((n) => overlaps(n.box, main)).map((n) => n.text),
      tabs,
    };
  });
}

describe('notices on a 360×740 phone', () => {
  it('several at once stay above the tab bar, off the page, a bounded number at a time; the tabs stay tappable', async () => {
    const { page } = phone;
    const nav = page.getByRole('navigation', { name: 'LetAgents' });
    await nav.getByRole('button', { name: 'Automations' }).tap();
    for (const name of NAMES) await page.getByRole('article', { name }).getByRole('button', { name: 'Pause' }).waitFor();

    // Four Pause taps land together (one task of the page): four notices at once.
    await page.evaluate(() => {
      for (const button of document.querySelectorAll<HTMLButtonElement>('article button')) if (button.textContent?.trim() === 'Pause') button.click();
    });
    await page.locator('.toasts .toast').nth(1).waitFor();

    const seen = await coverage(page);
    expect(seen.overTabBar, 'notices over the tab bar').toEqual([]);
    expect(seen.overPage, 'notices over the page').toEqual([]);
    expect(seen.tabs).toEqual(['Needs you', 'Rooms', 'Agents', 'Automations'].map((tab) => ({ tab: expect.stringContaining(tab), hitsItself: true })));
    // Two at a time; the rest wait their turn, and say so.
    expect(seen.shown).toHaveLength(2);
    await page.locator('.toasts').getByText('2 more notices').waitFor();
    // Each was said to screen readers when it was made, shown yet or not.
    for (const name of NAMES) await page.getByRole('log').getByText(paused(name)).waitFor({ state: 'attached' });

    // A tap on a tab works while they show.
    await nav.getByRole('button', { name: 'Rooms' }).tap();
    await page.getByRole('heading', { name: 'Rooms', level: 1 }).waitFor();
    await nav.getByRole('button', { name: 'Automations' }).tap();
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    expect(phone.problems, phone.problems.join('\n')).toEqual([]);
  }, 60_000);

  it('each notice can be dismissed by touch and by keyboard; the tab bar stays reachable by keyboard; axe in both schemes', async () => {
    const { page } = phone;
    const nav = page.getByRole('navigation', { name: 'LetAgents' });
    const notices = page.getByRole('list', { name: 'Notices' });
    // All four show paused first: the list the last tab tap fetched may still be on its way, and
    // the burst below clicks only the Resume buttons there are (CI once saw three notices of four).
    for (const name of NAMES) await page.getByRole('article', { name }).getByRole('button', { name: 'Resume' }).waitFor();
    // A fresh burst: Resume all four.
    await page.evaluate(() => {
      for (const button of document.querySelectorAll<HTMLButtonElement>('article button')) if (button.textContent?.trim() === 'Resume') button.click();
    });
    await page.getByRole('log').getByText(`${NAMES[3]}: Runs again.`).waitFor({ state: 'attached' });

    // By keyboard (the notices come just before the tab bar: back from it): focus stops their
    // clock, Enter dismisses one, and focus moves to the next notice.
    await pressUntilFocused(page, 'Shift+Tab', notices.getByRole('button', { name: 'Dismiss notice' }));
    await expectNoViolationsInBothSchemes(page, 'the notices above the tab bar');
    const focusedText = await page.evaluate(() => document.activeElement?.closest('li')?.textContent ?? '');
    expect(focusedText).not.toBe('');
    await page.keyboard.press('Enter');
    await notices.getByText(focusedText, { exact: true }).waitFor({ state: 'detached' });
    expect(await isFocused(notices.getByRole('button', { name: 'Dismiss notice' }))).toBe(true);
    // A waiting one took its place.
    await notices.getByRole('listitem').nth(1).waitFor();
    // On from the notices, Tab reaches the tab bar.
    await pressUntilFocused(page, 'Tab', nav.getByRole('button', { name: 'Needs you' }));

    // By touch.
    const shown = await notices.getByRole('listitem').first().textContent();
    await notices.getByRole('listitem').first().getByRole('button', { name: 'Dismiss notice' }).tap();
    await notices.getByText(shown!, { exact: true }).waitFor({ state: 'detached' });
    // The rest go by themselves, and the page has its full height again.
    await page.locator('.toasts .toast').first().waitFor({ state: 'detached', timeout: 30_000 });
    const heights = await page.evaluate(() => ({ main: document.querySelector('main')!.getBoundingClientRect().bottom, nav: document.querySelector('nav.phone-nav')!.getBoundingClientRect().top }));
    expect(heights.main).toBeCloseTo(heights.nav, 0);
    expect(phone.problems, phone.problems.join('\n')).toEqual([]);
  }, 60_000);
});
