// The built renderer in real Chromium, through the real browser host and the API double:
// no console or CSP errors, the one-time code leaves the address bar, drag and drop follows the
// transition table (a refused column is dimmed and the drop does nothing), focus is
// visible, and a long room renders only a window of rows. Needs `electron-vite build`
// (npm test runs it first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './support/chromium';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { startDemoServer, type DemoServer } from './support/demoServer';
import { agentPerson, message, room } from './support/fakeData';

const RENDERER = path.resolve(__dirname, '../../out/renderer');
const SHOTS = path.resolve(__dirname, '../../test-results/renderer');

let browser: Awaited<ReturnType<typeof launchChromium>>;
let demo: DemoServer;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(path.join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build');
  mkdirSync(SHOTS, { recursive: true });
  const state = demoState();
  state.rooms.push(room('Long room', { lastNumber: 2000 }));
  state.messages['Long room'] = Array.from({ length: 2000 }, (_, i) => message('Long room', i + 1, agentPerson('Juniper'), `Line ${i + 1} of a long day.`));
  demo = await startDemoServer(RENDERER, state);
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(demo.url);
  await page.getByRole('region', { name: 'Messages' }).waitFor({ timeout: 5000 });
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

describe('the app in Chromium', () => {
  it('loads under the strict CSP without errors and takes the one-time code out of the address bar', async () => {
    expect(page.url()).toBe(`${demo.origin}/`);
    expect(problems).toEqual([]);
  });

  it('refuses a drop on a column the table does not allow, dimming it while dragging', async () => {
    await page.getByRole('tab', { name: 'Board' }).click();
    const card = page.locator('.board-column article[aria-label^="task_18:"]');
    const done = page.locator('[data-status="assigned"]');
    const box = (await card.boundingBox())!;
    const target = (await done.boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + 12);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + 40, { steps: 5 });
    await page.locator('.task-card.dragging').waitFor({ timeout: 5000 });
    await page.mouse.move(target.x + target.width / 2, target.y + 120, { steps: 10 });
    await expect.poll(() => done.getAttribute('aria-disabled')).toBe('true');
    expect(Number(await done.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(0.5);
    expect(await page.locator('[data-status="accepted"]').getAttribute('class')).toContain('column-allowed');
    await page.screenshot({ path: path.join(SHOTS, 'board-drag-refused.png') });
    await page.mouse.up();
    // The card floats back to where it was; wait for that before looking.
    await page.locator('.task-card.overlay').waitFor({ state: 'detached', timeout: 5000 });
    expect(demo.api.state.tasks[DEMO_REPO_ROOM].find((t) => t.number === 18)?.status).toBe('proposed');
    expect(demo.api.calls.some((c) => c.method.startsWith('tasks.') && c.method !== 'tasks.board')).toBe(false);
  });

  it('accepts a drop on an allowed column', async () => {
    await page.locator('.board').evaluate((el) => (el.scrollLeft = 0));
    const card = page.locator('.board-column article[aria-label^="task_18:"]');
    const accepted = page.locator('[data-status="accepted"]');
    const box = (await card.boundingBox())!;
    const target = (await accepted.boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + 12);
    await page.mouse.down();
    await page.mouse.move(box.x + 60, box.y + 40, { steps: 5 });
    await page.locator('.task-card.dragging').waitFor({ timeout: 5000 });
    await page.mouse.move(target.x + target.width / 2, target.y + 150, { steps: 10 });
    await expect.poll(() => accepted.getAttribute('class')).toContain('column-over');
    await page.mouse.up();
    await accepted.getByText('Add jitter to webhook backoff').waitFor({ timeout: 5000 });
    expect(demo.api.calls.find((c) => c.method === 'tasks.accept')?.input).toEqual({ roomId: DEMO_REPO_ROOM, place: 'local', number: 18 });
    await page.screenshot({ path: path.join(SHOTS, 'board-drop-accepted.png') });
  });

  it('shows a visible focus ring when moving with the keyboard', async () => {
    await page.getByRole('tab', { name: 'Board' }).focus();
    await page.keyboard.press('ArrowRight');
    // Drawn as an outline, which forced-colours (high contrast) mode keeps.
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement!);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(ring).toEqual({ style: 'solid', width: 2 });
  });

  it('a room of 2000 messages opens at the newest and renders only a window of rows', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Long room' }).click();
    await page.getByText('Line 2000 of a long day.').waitFor({ timeout: 5000 });
    expect(await page.locator('.timeline-row').count()).toBeLessThan(60);
    await page.screenshot({ path: path.join(SHOTS, 'long-room.png') });
  });

  it('opens the task when a task_N link in a message is clicked (issue 15 item 10)', async () => {
    await page.getByRole('navigation').getByRole('button', { name: /checkout-service/ }).first().click();
    await page.getByRole('tab', { name: 'Chat' }).click();
    const messages = page.getByRole('region', { name: 'Messages' });
    await messages.locator('button.task-ref', { hasText: 'task_14' }).first().click();
    const drawer = page.getByRole('complementary', { name: 'task_14: Fix flaky CartTotals test' });
    await drawer.waitFor({ timeout: 5000 });
    expect(demo.api.calls.some((c) => c.method === 'tasks.get' && (c.input as { number: number }).number === 14)).toBe(true);
    await drawer.getByRole('button', { name: /Close/ }).click();
    await drawer.waitFor({ state: 'detached', timeout: 5000 });
  });

  it('no errors along the way', () => {
    expect(problems).toEqual([]);
  });
});
