// Zoom and motion (issue 17): at 200% zoom on a 1280×800 window (a 640×400 CSS viewport)
// the chat needs no sideways scrolling and its key controls are on screen and not covered,
// with and without the thread panel open; and with "reduce motion" set, nothing in the app
// transitions or animates (only the loading spinner keeps turning, slowly).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openApp, roomButton, type AppSession } from './lib/app';
import { BUSY_ROOM, seedBusyRoom, type BusyRoom } from './lib/busyRoom';
import { saveShot } from './lib/shots';

const ZOOMED = { width: 1280 / 2, height: 800 / 2 };
let app: AppSession;
let room: BusyRoom;

beforeAll(async () => {
  app = await openApp(ZOOMED);
  room = await seedBusyRoom(app.serve.dataDir, { tasks: 2 });
  await room.birch.call('send_message', { text: `A long line without spaces: ${'x'.repeat(300)}\n\n\`\`\`\n${'const wide = '.repeat(30)}\n\`\`\`` });
  await roomButton(app.page, BUSY_ROOM).click();
  await app.page.getByRole('region', { name: 'Messages' }).getByText('A long line without spaces').waitFor();
}, 60_000);

afterAll(async () => {
  await room?.close();
  await app?.close();
});

/** Whether the page, or any scroller of the chat, scrolls sideways. */
function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth) found.push(`document ${doc.scrollWidth} > ${doc.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('.main, .room, .chat, .chat-main, .timeline, .side-panel-body')) {
      if (el.scrollWidth > el.clientWidth + 1) found.push(`.${el.className.split(' ')[0]} ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return found;
  });
}

/** Inside the viewport whole, and what is drawn at its centre is the control (not something covering it). */
async function onScreen(control: Locator): Promise<boolean> {
  return control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside && !!top && (el === top || el.contains(top));
  });
}

async function expectControlsOnScreen(controls: Locator[]): Promise<void> {
  for (const control of controls) expect(await onScreen(control), `${control} is clipped, covered or off screen`).toBe(true);
}

describe('at 200% zoom (640×400 CSS pixels)', () => {
  it('the chat needs no sideways scrolling and its controls are on screen', async () => {
    const { page } = app;
    expect(await sidewaysScroll(page)).toEqual([]);
    const nav = page.getByRole('navigation', { name: 'LetAgents' });
    await expectControlsOnScreen([
      nav.getByRole('button', { name: /Needs you/ }),
      roomButton(page, BUSY_ROOM),
      page.getByRole('button', { name: 'Room actions' }),
      ...['Chat', 'Board', 'Agents', 'Memory'].map((name) => page.getByRole('tab', { name })),
      page.getByRole('combobox', { name: `Message ${BUSY_ROOM}` }),
      page.getByRole('button', { name: 'Send' }),
    ]);
    await saveShot(page, 'zoom-200-chat');
  });

  it('the thread panel covers the chat instead of squeezing it, with its own controls on screen', async () => {
    const { page } = app;
    await page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: /1 reply/ }).click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await thread.getByText('Yes: each flag with its default').waitFor();
    expect(await sidewaysScroll(page)).toEqual([]);
    await expectControlsOnScreen([thread.getByRole('button', { name: 'Close thread' }), thread.getByRole('combobox', { name: 'Reply in thread' })]);
    await saveShot(page, 'zoom-200-thread');
    await thread.getByRole('button', { name: 'Close thread' }).click();
    await thread.waitFor({ state: 'detached' });
  });

  it('the board and the other pages scroll only where they should (the board sideways inside itself)', async () => {
    const { page } = app;
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('region', { name: 'Proposed', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await expectControlsOnScreen([page.getByRole('button', { name: 'New task' })]);
    await saveShot(page, 'zoom-200-board');
    const pages: Array<[string, string]> = [
      ['Needs you', 'Which night can the database move?'],
      ['Agents', 'working on the migration dry run'],
      ['Connect agents', 'Then tell your agent'],
      ['Settings', 'Diagnostics'],
    ];
    for (const [view, shows] of pages) {
      await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: new RegExp(`^${view}`) }).click();
      await page.getByText(shows, { exact: false }).first().waitFor();
      expect(await sidewaysScroll(page), view).toEqual([]);
      await saveShot(page, `zoom-200-${view.replace(/\W+/g, '-').toLowerCase()}`);
    }
    expect(app.problems).toEqual([]);
  });
});

/** The longest transition or animation anywhere in the page, in seconds (the spinner aside). */
function longestMotion(page: Page): Promise<{ seconds: number; where: string }> {
  return page.evaluate(() => {
    const seconds = (list: string) => Math.max(...list.split(',').map((part) => (part.trim().endsWith('ms') ? parseFloat(part) / 1000 : parseFloat(part))));
    let longest = { seconds: 0, where: '' };
    for (const el of document.querySelectorAll('*')) {
      if (el.classList.contains('spinner')) continue;
      for (const pseudo of [null, '::before', '::after']) {
        const style = getComputedStyle(el, pseudo);
        const motion = Math.max(seconds(style.transitionDuration), style.animationName === 'none' ? 0 : seconds(style.animationDuration));
        if (motion > longest.seconds) longest = { seconds: motion, where: `${el.localName}.${[...el.classList].join('.')}${pseudo ?? ''}` };
      }
    }
    return longest;
  });
}

describe('reduced motion', () => {
  it('with "reduce motion" set, no transition or animation lasts longer than an instant', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const normal = await longestMotion(page);
    expect(normal.seconds).toBeGreaterThan(0.1); // the switch and buttons do move normally
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const reduced = await longestMotion(page);
    expect(reduced.seconds, `still moving: ${reduced.where}`).toBeLessThanOrEqual(0.001);
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
  });

  it('the board and chat move nothing either', async () => {
    const { page } = app;
    await roomButton(page, BUSY_ROOM).click();
    await page.getByRole('region', { name: 'Messages' }).waitFor();
    expect((await longestMotion(page)).seconds).toBeLessThanOrEqual(0.001);
    await page.getByRole('tab', { name: 'Board' }).click();
    await page.getByRole('region', { name: 'Proposed', exact: true }).waitFor();
    expect((await longestMotion(page)).seconds).toBeLessThanOrEqual(0.001);
    await page.emulateMedia({ reducedMotion: null });
    expect((await longestMotion(page)).seconds).toBeGreaterThan(0.1); // board columns fade while dragging, normally
    expect(app.problems).toEqual([]);
  });
});
