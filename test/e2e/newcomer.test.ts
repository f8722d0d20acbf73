// What a new user tripped on (issue 35), in Chromium against a real `serve` with agents on real
// helper connections: the Welcome screen offers both ways in; Connect agents says "Set up"
// apart from whether an agent has connected, and names each button with its tool; an empty
// board keeps its columns' widths, and New task can assign the task at once; a person's
// user@host in the chat is no mention chip; at 900 px each view has one scroll bar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support';
import { agentPool } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { card, column } from './lib/board';
import { openChat, postAsPerson } from './lib/chat';
import { saveShot } from './lib/shots';

let app: AppSession;
const agents = agentPool(() => app.serve.dataDir);

beforeAll(async () => {
  // A HOME of its own: Connect writes the agent tools' settings there.
  app = await openApp({ width: 1280, height: 800, env: { HOME: tempDir('la-e2e-newcomer-home-') } });
}, 60_000);

afterAll(async () => {
  await agents.closeAll();
  await app?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'LetAgents' });

describe('a new user', () => {
  it('is offered both ways in on the Welcome screen; "Let LetAgents run one" opens Add agent, which makes a first room', async () => {
    const { page } = app;
    await page.getByRole('heading', { name: 'Welcome to LetAgents' }).waitFor();
    await page.getByRole('main').getByRole('button', { name: /Connect agents/ }).waitFor();
    await saveShot(page, 'welcome-two-ways');
    await page.getByRole('main').getByRole('button', { name: /Let LetAgents run one/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await dialog.getByRole('textbox', { name: 'New room' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Managed agents' }).waitFor();
    expect(app.problems).toEqual([]);
  });

  it('sees a tool set up apart from an agent connected through it, and every button named with its tool', async () => {
    const { page } = app;
    await nav().getByRole('button', { name: 'Connect agents' }).click();
    await page.getByRole('button', { name: 'Connect Claude Code', exact: true }).click();
    const claude = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Claude Code', exact: true }) });
    await claude.getByText('Set up', { exact: true }).waitFor();
    await claude.getByText('No agent has connected through it yet', { exact: false }).waitFor();
    expect(await claude.getByText('Agent connected').count()).toBe(0);
    await agents.join('first-room', 'Juniper');
    await claude.getByText('Connected now: Juniper.').waitFor();
    await claude.getByText('Agent connected', { exact: true }).waitFor();
    const names = await page.locator('.tool-grid button').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent ?? ''));
    expect(names.length).toBeGreaterThanOrEqual(14);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n === 'Connect')).toEqual([]);
    await saveShot(page, 'connect-set-up-and-connected');
    expect(app.problems).toEqual([]);
  });

  it('finds an empty board with its columns at full width, and assigns a new task at once', async () => {
    const { page } = app;
    await agents.join('fresh-board', 'Birch');
    await openChat(page, 'fresh-board');
    await page.getByRole('tab', { name: 'Board' }).click();
    const widths = await page.locator('.board > [data-status]').evaluateAll((cols) => cols.map((c) => c.getBoundingClientRect().width));
    expect(widths).toHaveLength(6);
    // Not six 40 px strips, as when the board looked collapsed.
    for (const width of widths) expect(width).toBeGreaterThan(120);
    await saveShot(page, 'empty-board');
    await page.getByRole('button', { name: 'New task' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Bump the payment SDK');
    await dialog.getByRole('combobox', { name: /Assign to/ }).selectOption({ label: 'Birch (Working)' });
    await dialog.getByRole('button', { name: 'Add task' }).click();
    await dialog.waitFor({ state: 'detached' });
    const added = card(column(page, 'Assigned'), 'task_1');
    await added.getByText('Bump the payment SDK').waitFor();
    await added.getByText('Birch').waitFor();
    expect(app.problems).toEqual([]);
  });

  it("reads a person's user@host as plain text, not a mention chip", async () => {
    const { page } = app;
    await openChat(page, 'fresh-board');
    const posted = await postAsPerson(page, 'fresh-board', 'Thanks root@vm, and @Birch please pick it up.');
    expect(await posted.locator('.mention').allTextContents()).toEqual(['@Birch']);
  });

  it('has one scroll bar per view at 900 px, not three', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 900, height: 700 });
    const scrolling = () =>
      page.evaluate(() => {
        const scrolls = (e: Element) => {
          const style = getComputedStyle(e);
          return (e.scrollHeight > e.clientHeight + 1 && /auto|scroll/.test(style.overflowY)) || (e.scrollWidth > e.clientWidth + 1 && /auto|scroll/.test(style.overflowX));
        };
        const root = document.documentElement;
        return { document: root.scrollHeight > root.clientHeight || root.scrollWidth > root.clientWidth, inMain: [...document.querySelectorAll('main *')].filter(scrolls).length };
      });
    for (let i = 0; i < 30; i++) await agents.joined[1].call('send_message', { text: `Progress note ${i + 1}.` });
    await page.getByRole('region', { name: 'Messages' }).getByText('Progress note 30.').waitFor();
    expect(await scrolling()).toEqual({ document: false, inMain: 1 });
    await nav().getByRole('button', { name: 'Connect agents' }).click();
    await page.getByRole('heading', { name: 'Then tell your agent' }).waitFor();
    expect(await scrolling()).toEqual({ document: false, inMain: 1 });
    await nav().getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    expect(await scrolling()).toEqual({ document: false, inMain: 1 });
    await saveShot(page, 'settings-900');
  });
});
