// Layout from 800×600 up (issue 16), with agents on real helper connections: the room header
// never clips the room's title; a thread opened at this width covers the chat instead of
// squeezing it to a sliver; the agents list stays clear of the sidebar; long names of
// agents, rooms and people end with an ellipsis and say themselves whole on hover; a
// rename takes at most 64 characters in the dialog itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const ROOM = 'release-train-weekly';
const LONG_ROOM = 'the-quarterly-infrastructure-migration-and-cleanup-working-group-room';
const LONG_AGENT = 'Bartholomew-the-very-thorough-reviewer-of-everything-in-this-rep';
let app: AppSession;
const agents: Agent[] = [];

beforeAll(async () => {
  app = await openApp({ width: 800, height: 600 });
  for (const [name, clientName] of [['Atlas', 'claude-code'], ['Birch', 'codex'], ['Cedar', 'cursor']]) {
    const agent = await joinAgent(app.serve.dataDir, { room: ROOM, name, clientName });
    await agent.call('post_status', { status: 'working on the release checklist and its follow-ups' });
    agents.push(agent);
  }
  const question = await agents[0].call('send_message', { text: 'Does the checklist cover the rollback?' });
  await agents[1].call('send_thread_message', { thread_parent_id: question.id, text: 'Yes, step 7.' });
  const long = await joinAgent(app.serve.dataDir, { room: LONG_ROOM, name: LONG_AGENT });
  await long.call('send_message', { text: 'Reviewing the plan now.' });
  agents.push(long);
  await roomButton(app.page, ROOM).click();
  await app.page.getByRole('region', { name: 'Messages' }).getByText('Does the checklist cover the rollback?').waitFor();
}, 90_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await app?.close();
});

const box = async (locator: Locator) => (await locator.boundingBox())!;
/** Shortened by the browser: the text is wider than the box it sits in. */
const truncated = (locator: Locator) => locator.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === 'ellipsis');
const title = (page: Page) => page.getByRole('heading', { level: 1 }).locator('.truncate');

describe('at 800×600', () => {
  it('shows the whole room title in the header, beside online agents', async () => {
    const { page } = app;
    const heading = title(page);
    await page.getByRole('list', { name: '3 agents online' }).waitFor();
    expect(await heading.textContent()).toBe(ROOM);
    expect(await truncated(heading)).toBe(false);
    // Nothing is drawn over it, from its first letter to its last.
    const r = await box(heading);
    for (const x of [r.x + 2, r.x + r.width - 2]) {
      expect(await page.evaluate(([px, py]) => document.elementFromPoint(px, py)?.closest('h1') !== null, [x, r.y + r.height / 2])).toBe(true);
    }
    await saveShot(page, 'layout-800-header');
  });

  it('opens a thread over the chat instead of squeezing the chat', async () => {
    const { page } = app;
    const main = await box(page.locator('.chat'));
    await page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: /1 reply/ }).click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await thread.getByText('Yes, step 7.').waitFor();
    const panel = await box(thread);
    expect(panel.x).toBeLessThanOrEqual(main.x + 1);
    expect(panel.width).toBeGreaterThanOrEqual(main.width - 2);
    // The chat keeps its width under it (not ~130 px beside it).
    expect((await box(page.locator('.chat-main'))).width).toBeGreaterThanOrEqual(main.width - 2);
    await saveShot(page, 'layout-800-thread');
    await thread.getByRole('button', { name: 'Close thread' }).click();
  });

  it('keeps the agents list clear of the sidebar, and long names end with an ellipsis and a tooltip', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Agents', exact: true }).click();
    const name = page.locator('.agent-name', { hasText: LONG_AGENT });
    await name.waitFor();
    const sidebarRight = (await box(page.getByRole('navigation', { name: 'LetAgents' }))).x + (await box(page.getByRole('navigation', { name: 'LetAgents' }))).width;
    const lefts = await page.locator('.agent-list *').evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().width > 0).map((el) => el.getBoundingClientRect().left));
    await saveShot(page, 'layout-800-agents');
    expect(Math.min(...lefts)).toBeGreaterThanOrEqual(sidebarRight);
    expect(await page.locator('.page').evaluate((el) => `${el.scrollWidth} <= ${el.clientWidth}`)).toMatch(/^(\d+) <= (\d+)$/);
    expect(await page.locator('.page').evaluate((el) => el.scrollWidth <= el.clientWidth), 'the page scrolls sideways').toBe(true);
    expect(await truncated(name), 'the long name is shortened').toBe(true);
    expect(await name.getAttribute('title')).toBe(LONG_AGENT);

    // The long room: in the sidebar, and in its own header.
    const item = roomButton(page, LONG_ROOM);
    expect(await truncated(item.locator('.nav-label .truncate'))).toBe(true);
    expect(await item.getAttribute('title')).toBe(LONG_ROOM);
    await item.click();
    expect(await truncated(title(page))).toBe(true);
    expect(await title(page).getAttribute('title')).toBe(LONG_ROOM);
    const sender = page.getByRole('region', { name: 'Messages' }).locator('.sender-name', { hasText: LONG_AGENT });
    expect(await sender.getAttribute('title')).toBe(LONG_AGENT);
    await saveShot(page, 'layout-800-long-names');
  });

  it('takes at most 64 characters for a new name, in the dialog itself', async () => {
    const { page } = app;
    await page.getByRole('button', { name: 'Room actions' }).click();
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename room' });
    const field = dialog.getByRole('textbox', { name: 'Room name' });
    await field.fill('');
    await field.pressSequentially('x'.repeat(80));
    expect(await field.inputValue()).toHaveLength(64);
    await dialog.getByText('0 characters left').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(app.problems).toEqual([]);
  });
});
