// Measures (records, never asserts) the UI with a room of 100 000 messages in headless
// Chromium against a real `serve`: the time from clicking the room to its first painted
// messages, and the longest frame while scrolling up through it for 5 s. Run it:
//   npx esbuild test/e2e/lib/measureRoomOpen.ts --bundle --platform=node --format=esm \
//     --packages=external --outfile=out/e2e/measureRoomOpen.mjs && npx node out/e2e/measureRoomOpen.mjs
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { cleanupSpawned, startServe, tempDir } from '../../support';
import { launchChromium } from '../../renderer/support/chromium';
import { seedRooms } from './seedRoom';

const BIG = 'hundred-thousand';
const LOBBY = 'lobby';
const OPENS = 5;
const SCROLL_MS = 5_000;
const SCROLL_PX_PER_FRAME = 80;

/** In the page: clicks the room and resolves with ms until the frame after its first message is in the DOM. */
function openRoom(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // The room's entry carries its id as the title (its text also holds the unread count).
    const button = document.querySelector<HTMLButtonElement>(`nav button[title="${name}"]`);
    if (!button) return reject(new Error(`no sidebar entry for ${name}`));
    const region = () => document.querySelector('[role="region"][aria-label="Messages"]');
    // The chat is keyed by room: the big room's timeline is a new element, not the lobby's.
    const before = region();
    const started = performance.now();
    setTimeout(() => reject(new Error(`${name} showed no messages within 30 s`)), 30_000);
    const check = () => {
      const now = region();
      if (now && now !== before && now.querySelector('article[data-number]')) {
        // Painted: the next frame has been produced after the DOM held the message.
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started), 0));
      } else requestAnimationFrame(check);
    };
    button.click();
    requestAnimationFrame(check);
  });
}

/** In the page: scrolls the timeline up every frame for `ms`; frame intervals and long animation frames. */
function scrollUp({ ms, step }: { ms: number; step: number }): Promise<{ frames: number[]; longFrames: number[]; from: number; to: number; stalled: number }> {
  return new Promise((resolve) => {
    const scroller = document.querySelector<HTMLElement>('[role="region"][aria-label="Messages"]')!;
    const numbers = () => [...scroller.querySelectorAll<HTMLElement>('article[data-number]')].map((a) => Number(a.dataset.number));
    const from = Math.max(...numbers());
    const longFrames: number[] = [];
    const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => longFrames.push(e.duration)));
    try {
      observer.observe({ type: 'long-animation-frame', buffered: false });
    } catch {
      observer.observe({ type: 'longtask', buffered: false });
    }
    const frames: number[] = [];
    let last = 0;
    let stalled = 0; // frames that found the timeline at its top, waiting for older messages
    const end = performance.now() + ms;
    const tick = (now: number) => {
      if (last) frames.push(now - last);
      last = now;
      if (scroller.scrollTop === 0) stalled++;
      scroller.scrollTop -= step;
      if (now < end) requestAnimationFrame(tick);
      else {
        observer.disconnect();
        resolve({ frames, longFrames, from, to: Math.min(...numbers()), stalled });
      }
    };
    requestAnimationFrame(tick);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measureRoomOpen(): Promise<Record<string, unknown>> {
  const dataDir = join(tempDir('la-measure-'), 'data');
  const seeding = performance.now();
  seedRooms(dataDir, [{ roomId: BIG, messages: 100_000 }, { roomId: LOBBY, messages: 30 }]);
  const seedMs = performance.now() - seeding;
  const serve = await startServe({ dataDir, timeoutMs: 60_000 });
  const browser = await launchChromium();
  try {
    const page: Page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const opens: number[] = [];
    for (let i = 0; i <= OPENS; i++) {
      // A fresh load each time (via about:blank: the link differs from the address bar only in
      // its #fragment, so going to it directly would not reload); the app starts in the lobby
      // (newest activity), then the big room opens.
      await page.goto('about:blank');
      await page.goto(await serve.newUiUrl());
      await page.getByRole('region', { name: 'Messages' }).getByRole('article').first().waitFor({ timeout: 30_000 });
      const ms = await page.evaluate(openRoom, BIG);
      if (i > 0) opens.push(ms); // the first round warms the bundle and the database pages
      if (!(await page.locator('article[data-number="99999"], article[data-number="100000"]').count())) throw new Error('the big room did not open at its newest messages');
    }
    await page.waitForTimeout(500);
    const scroll = await page.evaluate(scrollUp, { ms: SCROLL_MS, step: SCROLL_PX_PER_FRAME });
    return {
      seededMessages: 100_030,
      seedSeconds: +(seedMs / 1000).toFixed(1),
      openToFirstPaintMs: { median: +median(opens).toFixed(1), all: opens.map((x) => +x.toFixed(1)) },
      scroll: {
        seconds: SCROLL_MS / 1000,
        frames: scroll.frames.length,
        longestFrameMs: +Math.max(...scroll.frames).toFixed(1),
        medianFrameMs: +median(scroll.frames).toFixed(1),
        longAnimationFramesMs: scroll.longFrames.map((x) => +x.toFixed(1)),
        scrolledFrom: `msg_${scroll.from}`,
        scrolledBackTo: `msg_${scroll.to}`,
        framesAtTopWaitingForOlder: scroll.stalled,
      },
    };
  } finally {
    await browser.close();
    await serve.stop();
    await cleanupSpawned();
  }
}

if (process.argv[1]?.endsWith('measureRoomOpen.mjs')) {
  measureRoomOpen().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
