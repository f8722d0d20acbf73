// WCAG 2.1 AA in every view (issue 17): axe-core runs in real Chromium over each view of the
// app, filled with what agents on real helper connections wrote, in light and in dark, and
// finds no violation of the A/AA rules. A new view joins by one line in VIEWS.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeGitHub, type FakeGitHub } from '../support/fakeGitHub';
import { tempDir } from '../support';
import { openApp, roomButton, type AppSession } from './lib/app';
import { axeViolations } from './lib/axe';
import { card, column } from './lib/board';
import { BUSY_ROOM, seedBusyRoom, type BusyRoom } from './lib/busyRoom';
import { saveShot } from './lib/shots';

const nav = (page: Page) => page.getByRole('navigation', { name: 'LetAgents' });
const sidebar = (page: Page, name: string) => nav(page).getByRole('button', { name, exact: true });
const roomTab = async (page: Page, tab: string) => {
  await roomButton(page, BUSY_ROOM).click();
  await page.getByRole('tab', { name: tab }).click();
};

interface AuditedView {
  readonly name: string;
  /** Audited before any agent arrives (the first-run screen), instead of in the busy room. */
  readonly firstRun?: boolean;
  /** Reaches the view as the person does and waits until it has finished loading. */
  open(page: Page): Promise<void>;
  /** Leaves it again, when the view would otherwise change what the next one shows. */
  close?(page: Page): Promise<void>;
}

const VIEWS: readonly AuditedView[] = [
  { name: 'home', firstRun: true, open: (page) => page.getByRole('heading', { name: 'Welcome to LetAgents' }).waitFor() },
  {
    name: 'room chat with a thread open',
    open: async (page) => {
      await roomTab(page, 'Chat');
      await page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: /1 reply/ }).click();
      await page.getByRole('complementary', { name: 'Thread' }).getByText('Yes: each flag with its default').waitFor();
    },
  },
  { name: 'board', open: async (page) => (await roomTab(page, 'Board'), await card(column(page, 'In review'), 'task_4').waitFor()) },
  { name: 'memory', open: async (page) => (await roomTab(page, 'Memory'), await page.getByText('Code freeze on Thursday').waitFor()) },
  { name: 'agents roster', open: async (page) => (await sidebar(page, 'Agents').click(), await page.getByText('Cedar', { exact: true }).waitFor()) },
  { name: 'needs you', open: async (page) => (await nav(page).getByRole('button', { name: /Needs you/ }).click(), await page.getByRole('heading', { name: 'Which night can the database move?' }).waitFor()) },
  { name: 'connect agents', open: async (page) => (await sidebar(page, 'Connect agents').click(), await page.getByText('Then tell your agent').waitFor()) },
  {
    name: 'settings',
    open: async (page) => {
      await sidebar(page, 'Settings').click();
      await page.getByRole('button', { name: 'Run diagnostics' }).click();
      await page.getByRole('button', { name: 'Run again' }).waitFor();
    },
  },
  {
    name: 'search of every room',
    open: async (page) => {
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search all rooms' });
      await dialog.getByRole('searchbox').fill('flags');
      await dialog.getByRole('status').getByText(/match/).waitFor();
    },
    close: (page) => page.keyboard.press('Escape'),
  },
  {
    name: 'undo of a cancel',
    open: async (page) => {
      await roomTab(page, 'Board');
      await card(column(page, 'Proposed'), 'task_1').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('list', { name: 'Can be undone' }).waitFor();
    },
    close: async (page) => {
      await page.getByRole('list', { name: 'Can be undone' }).getByRole('button', { name: 'Undo' }).click();
      await card(column(page, 'Proposed'), 'task_1').waitFor();
    },
  },
  {
    name: 'sign-in',
    open: async (page) => {
      await nav(page).locator('.account-item').click();
      const start = page.getByRole('button', { name: 'Sign in with GitHub' });
      const code = page.getByLabel(/^Your code is /);
      // Without a keychain the page explains why; signed in (the keychain is shared) it shows the account.
      const other = page.getByRole('heading', { name: 'Sign-in needs your system keychain' }).or(page.getByText('Signed in to GitHub as', { exact: false }));
      await start.or(code).or(other).first().waitFor();
      // The richest state: the one-time code, large, with its countdown.
      if (await start.count()) {
        await start.click();
        await code.waitFor();
      }
    },
  },
];

let app: AppSession;
let github: FakeGitHub;
let room: BusyRoom;

beforeAll(async () => {
  github = await startFakeGitHub();
  // A home folder where Claude Code and Codex look installed, so Connect agents shows both pill kinds.
  const home = tempDir('la-a11y-home-');
  mkdirSync(path.join(home, '.claude'));
  mkdirSync(path.join(home, '.codex'));
  app = await openApp({ env: github.env({ HOME: home }) });
}, 60_000);

afterAll(async () => {
  await room?.close();
  await app?.close();
  await github?.close();
});

/** Audits one view in one colour scheme: no violation, and nothing went wrong in the page. */
async function audit(view: AuditedView, scheme: 'light' | 'dark'): Promise<void> {
  const { page } = app;
  await page.emulateMedia({ colorScheme: scheme });
  await view.open(page);
  // Colours fade between schemes (button transitions): judge them once they have arrived.
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished)));
  const violations = await axeViolations(page);
  await saveShot(page, `a11y-${scheme}-${view.name.replace(/\W+/g, '-')}`);
  await view.close?.(page);
  expect(violations, violations.join('\n')).toEqual([]);
  expect(app.problems).toEqual([]);
}

const SCHEMES = ['light', 'dark'] as const;
const cases = (firstRun: boolean) => SCHEMES.flatMap((scheme) => VIEWS.filter((v) => !!v.firstRun === firstRun).map((view) => [`${view.name} (${scheme})`, view, scheme] as const));

describe('WCAG 2.1 AA on the first run', () => {
  it.each(cases(true))('%s has no axe violations', (_name, view, scheme) => audit(view, scheme), 30_000);
});

describe('WCAG 2.1 AA with agents at work', () => {
  beforeAll(async () => {
    room = await seedBusyRoom(app.serve.dataDir);
    const { page } = app;
    // The person accepts three of the proposals; the agents take them on from there.
    await roomTab(page, 'Board');
    for (const id of room.taskIds.slice(1)) {
      await card(column(page, 'Proposed'), id).getByRole('button', { name: 'Accept' }).click();
      await card(column(page, 'Accepted'), id).waitFor();
    }
    const [, flaky, schema, demo] = room.taskIds;
    await room.birch.call('claim_task', { task_id: flaky });
    await room.cedar.call('claim_task', { task_id: schema });
    await room.cedar.call('update_task', { task_id: schema, status: 'in_progress' });
    await room.atlas.call('claim_task', { task_id: demo });
    await room.atlas.call('complete_task', { task_id: demo, pr_url: 'https://github.com/acme/app/pull/12' });
    await sidebar(page, 'Connect agents').click();
    await page.getByRole('listitem').filter({ hasText: 'Claude Code' }).getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('listitem').filter({ hasText: 'Claude Code' }).getByText('Connected', { exact: true }).waitFor();
  }, 90_000);

  it.each(cases(false))('%s has no axe violations', (_name, view, scheme) => audit(view, scheme), 30_000);
});
