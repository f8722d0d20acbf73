// Rendered text never executes script (issue 9): an agent on a real MCP connection posts
// hostile Markdown/HTML as messages, a thread reply, a "Needs you" request and a task; the
// person views each place (and hovers and clicks what looks clickable). Nothing runs: no
// flag set, no dialog, no navigation or new window, no CSP violation even attempted, no live
// element or handler in the DOM, and each payload is on screen as plain text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { HOSTILE_PAYLOADS, RENDERED_TEXT, liveBitsIn, trapViolations } from './lib/hostile';
import { saveShot } from './lib/shots';

const ROOM = 'hostile-input';
const ALL = HOSTILE_PAYLOADS.map((p) => p.payload).join('\n\n');
let app: AppSession;
let mallory: Agent;
let appUrl: string;
const navigations: string[] = [];
const popups: string[] = [];

beforeAll(async () => {
  app = await openApp({ height: 2400, initScript: trapViolations });
  appUrl = app.page.url();
  app.page.on('framenavigated', (frame) => frame === app.page.mainFrame() && navigations.push(frame.url()));
  app.browser.context.on('page', (page) => popups.push(page.url()));
  mallory = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Mallory' });
  // One payload per message, then all of them in one message, a thread reply, a request and a task.
  for (const { payload } of HOSTILE_PAYLOADS) await mallory.call('send_message', { text: payload });
  const root = await mallory.call('send_message', { text: `Everything at once, searchable as zebrafish:\n\n${ALL}` });
  await mallory.call('send_thread_message', { thread_parent_id: root.id, text: `In a thread:\n\n${ALL}` });
  await mallory.call('request_human_input', { client_id: 'hostile-request-1', category: 'question', title: '<img src=x onerror="window.__pwned=\'title\'">', body: ALL });
  await mallory.call('add_task', { title: '<script>window.__pwned="task"</script>', description: ALL });
}, 60_000);

afterAll(async () => {
  await mallory?.close();
  await app?.close();
});

/** Waits a moment for anything asynchronous (image errors, frames), then checks nothing ran. */
async function expectNothingRan(where: Locator): Promise<void> {
  const { page } = app;
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
  expect(await where.evaluate(liveBitsIn, RENDERED_TEXT)).toEqual([]);
  expect(app.problems).toEqual([]);
  expect(navigations).toEqual([]);
  expect(popups).toEqual([]);
  expect(page.url()).toBe(appUrl.split('#')[0]);
}

/** Hovers and clicks every link inside `where` that would not leave for an https page. */
async function pokeLinks(where: Locator): Promise<void> {
  for (const link of await where.locator('a').all()) {
    const href = (await link.getAttribute('href')) ?? '';
    await link.hover();
    if (!href.startsWith('https:')) await link.click();
  }
}

describe('hostile text from an agent', () => {
  it('shows every payload as text in the chat and runs none of it', async () => {
    const { page } = app;
    await roomButton(page, ROOM).click();
    const timeline = page.getByRole('region', { name: 'Messages' });
    await timeline.getByText('Everything at once, searchable as zebrafish:').waitFor();
    await timeline.evaluate((el) => (el.scrollTop = 0));
    for (const { shows } of HOSTILE_PAYLOADS) await timeline.getByText(shows, { exact: false }).first().waitFor();
    await pokeLinks(timeline);
    await saveShot(page, 'hostile-text-chat');
    await expectNothingRan(timeline);
  });

  it('runs none of it in the thread panel', async () => {
    const { page } = app;
    await page.getByRole('button', { name: '1 reply' }).click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await thread.getByText('In a thread:').waitFor();
    for (const { shows } of HOSTILE_PAYLOADS) await thread.getByText(shows, { exact: false }).first().waitFor();
    await pokeLinks(thread);
    await expectNothingRan(thread);
  });

  it('runs none of it in search results', async () => {
    const { page } = app;
    await page.getByRole('region', { name: 'Messages' }).focus();
    await page.getByRole('button', { name: 'Search this room' }).click();
    await page.getByRole('searchbox', { name: 'Search messages in this room' }).fill('onerror');
    const search = page.getByRole('search');
    await search.getByRole('button').filter({ hasText: 'onerror' }).first().waitFor();
    expect(await search.getByText('<img src=x onerror=', { exact: false }).count()).toBeGreaterThan(0);
    await expectNothingRan(search);
    await page.keyboard.press('Escape');
  });

  it('runs none of it in "Needs you"', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('listitem').filter({ hasText: 'Mallory' });
    await item.getByRole('heading', { name: `<img src=x onerror="window.__pwned='title'">` }).waitFor();
    for (const { shows } of HOSTILE_PAYLOADS) await item.getByText(shows, { exact: false }).first().waitFor();
    await pokeLinks(item);
    await saveShot(page, 'hostile-text-needs-you');
    await expectNothingRan(item);
  });

  it('runs none of it on the board or in the task drawer', async () => {
    const { page } = app;
    await roomButton(page, ROOM).click();
    await page.getByRole('tab', { name: 'Board' }).click();
    const title = page.getByRole('button', { name: '<script>window.__pwned="task"</script>' });
    await title.click();
    const drawer = page.getByRole('complementary', { name: /^task_1: / });
    for (const { shows } of HOSTILE_PAYLOADS) await drawer.getByText(shows, { exact: false }).first().waitFor();
    await pokeLinks(drawer);
    await saveShot(page, 'hostile-text-task');
    await expectNothingRan(page.locator('main'));
  });
});
