// Headless Chromium through playwright-core for the UI figure: the machine's browser, a
// fresh profile (removed by cleanup()), no background traffic.
import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';
import { tempDir } from './processes';

export const CHROMIUM_PATH = process.env.LETAGENTS_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why the browser cannot run here, or null when it can. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `no Chromium at ${CHROMIUM_PATH} (set LETAGENTS_CHROMIUM)`;
}

export async function launchBrowser(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(tempDir('la-bench-chromium-'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
  });
}

/**
 * In-page: clicks the room's sidebar entry and resolves with the milliseconds until the
 * first of its messages has been painted (the frame after it entered the DOM). Messages
 * numbered \`minNumber\` or more tell the room apart from the one shown before.
 */
export const OPEN_ROOM_SCRIPT = `({ roomTitle, minNumber }) => new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll('button.room-item')].find((b) => b.textContent.includes(roomTitle));
  if (!button) return reject(new Error('no sidebar entry for ' + roomTitle));
  if (button.getAttribute('aria-current') === 'page') return reject(new Error(roomTitle + ' is already open'));
  setTimeout(() => reject(new Error('no message painted within 30 s')), 30000);
  let started = 0;
  const painted = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now() - started);
    requestAnimationFrame(() => channel.port2.postMessage(0));
  };
  // The room is shown once one of its messages is in the timeline (numbers the previous room never reached).
  const shown = () => [...document.querySelectorAll('.timeline article[data-number]')].some((a) => Number(a.dataset.number) >= minNumber);
  const observer = new MutationObserver(() => {
    if (shown()) { observer.disconnect(); painted(); }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  started = performance.now();
  button.click();
})`;

/**
 * In-page: scrolls the timeline up (into older history) by a fixed step every frame for
 * \`ms\`, recording the interval between frames; also reports how far back it got.
 */
export const SCROLL_SCRIPT = `({ ms, step }) => new Promise((resolve, reject) => {
  const scroller = document.querySelector('.timeline');
  if (!scroller) return reject(new Error('no timeline'));
  const frames = [];
  const newest = Math.max(...[...document.querySelectorAll('article[data-number]')].map((a) => Number(a.dataset.number)));
  let last = 0;
  const end = performance.now() + ms;
  const tick = (now) => {
    if (last) frames.push(now - last);
    last = now;
    scroller.scrollTop -= step;
    if (now < end) requestAnimationFrame(tick);
    else {
      const shown = [...document.querySelectorAll('article[data-number]')].map((a) => Number(a.dataset.number));
      resolve({ frames, newest, oldestShown: Math.min(...shown) });
    }
  };
  requestAnimationFrame(tick);
})`;
