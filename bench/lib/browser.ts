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
 * first of its messages has been painted (the frame after it entered the DOM). The chat is
 * keyed by room, so the room's own timeline is a new element; it counts once it holds one of
 * the room's messages (numbered \`minNumber\` or more, which the room shown before never reached).
 */
export const OPEN_ROOM_SCRIPT = `({ roomTitle, minNumber }) => new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll('button.room-item')].find((b) => b.textContent.includes(roomTitle));
  if (!button) return reject(new Error('no sidebar entry for ' + roomTitle));
  if (button.getAttribute('aria-current') === 'page') return reject(new Error(roomTitle + ' is already open'));
  const before = document.querySelector('.timeline');
  setTimeout(() => reject(new Error('no message of ' + roomTitle + ' painted within 30 s')), 30000);
  let started = 0;
  const painted = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now() - started);
    requestAnimationFrame(() => channel.port2.postMessage(0));
  };
  const shown = () => {
    const timeline = document.querySelector('.timeline');
    if (!timeline || timeline === before) return false;
    return [...timeline.querySelectorAll('article[data-number]')].some((a) => Number(a.dataset.number) >= minNumber);
  };
  const observer = new MutationObserver(() => {
    if (shown()) { observer.disconnect(); painted(); }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  started = performance.now();
  button.click();
})`;

/**
 * In-page: scrolls the timeline up (into older history) by a fixed step every frame for
 * \`ms\`, recording the interval between frames, the long animation frames (main-thread work
 * of 50 ms or more, which tells the page's own work from a busy machine), the frames that
 * found the timeline at its top waiting for older messages, and how far back it got.
 */
export const SCROLL_SCRIPT = `({ ms, step }) => new Promise((resolve, reject) => {
  const scroller = document.querySelector('.timeline');
  if (!scroller) return reject(new Error('no timeline'));
  const numbers = () => [...scroller.querySelectorAll('article[data-number]')].map((a) => Number(a.dataset.number));
  const newest = Math.max(...numbers());
  const longFrames = [];
  const observer = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
    ? new PerformanceObserver((list) => list.getEntries().forEach((e) => longFrames.push(e.duration)))
    : null;
  observer?.observe({ type: 'long-animation-frame' });
  const frames = [];
  let atTop = 0;
  let last = 0;
  const end = performance.now() + ms;
  const tick = (now) => {
    if (last) frames.push(now - last);
    last = now;
    if (scroller.scrollTop === 0) atTop++;
    scroller.scrollTop -= step;
    if (now < end) requestAnimationFrame(tick);
    else {
      // Entries of the last frames are delivered a task later.
      setTimeout(() => {
        observer?.disconnect();
        resolve({ frames, newest, oldestShown: Math.min(...numbers()), longFrames: observer ? longFrames : null, atTop });
      }, 100);
    }
  };
  requestAnimationFrame(tick);
})`;
