// WCAG 2.1 AA in every view (issue 17): axe-core runs in real Chromium over each view of the
// app, filled with what agents on real helper connections wrote, in light and in dark, and
// finds no violation of the A/AA rules. A new view joins by one line in VIEWS.
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startFakeGitHub, type FakeGitHub } from '../support/fakeGitHub';
import { tempDir } from '../support';
import { callBuiltInTool, replyInRoom, startFakeModel, type FakeModel } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';
import { providersListed } from './lib/managed';
import { currentCursor, joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { axeViolations } from './lib/axe';
import { card, column } from './lib/board';
import { BUSY_ROOM, seedBusyRoom, type BusyRoom } from './lib/busyRoom';
import { setDeliveryLimits } from './lib/delivery';
import { saveShot } from './lib/shots';

const nav = (page: Page) => page.getByRole('navigation', { name: 'LetAgents' });
const sidebar = (page: Page, name: string) => nav(page).getByRole('button', { name, exact: true });
const managedCard = (page: Page, name: string) => page.getByRole('list', { name: 'Managed agents' }).locator('> li').filter({ hasText: name });
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
  /** Leaves the view as the person does, where it would stand in the next view's way (a dialog). */
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
  {
    name: 'room chat with a message\'s receipts open',
    open: async (page) => {
      await roomTab(page, 'Chat');
      const line = page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: /^Seen by Atlas/ }).first();
      await line.focus();
      await page.getByRole('tooltip').getByText(/^Atlas: got it at /).first().waitFor();
    },
  },
  {
    name: 'room with a paused loop',
    open: async (page) => {
      await roomButton(page, LOOP_ROOM).click();
      await page.getByRole('status').filter({ hasText: 'The loop guard paused Dune and Elm.' }).waitFor();
    },
  },
  {
    name: 'token budget dialog',
    open: async (page) => {
      await roomButton(page, LOOP_ROOM).click();
      await page.getByRole('button', { name: 'Room actions' }).click();
      await page.getByRole('menuitem', { name: 'Token budget…' }).click();
      await page.getByRole('dialog', { name: `Token budget for ${LOOP_ROOM}` }).getByText(/tokens today of a 1k budget/).waitFor();
    },
    close: async (page) => {
      const dialog = page.getByRole('dialog', { name: `Token budget for ${LOOP_ROOM}` });
      if (await dialog.count()) await dialog.getByRole('button', { name: 'Cancel' }).click();
    },
  },
  { name: 'board', open: async (page) => (await roomTab(page, 'Board'), await card(column(page, 'In review'), 'task_4').waitFor()) },
  { name: 'memory', open: async (page) => (await roomTab(page, 'Memory'), await page.getByText('Code freeze on Thursday').waitFor()) },
  {
    name: 'agents roster with an agent listening',
    open: async (page) => {
      await sidebar(page, 'Agents').click();
      // Cedar waits for messages while the roster is audited: the roster shows every reachability state it has.
      const cursor = await currentCursor(room.cedar);
      void room.cedar.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 }).catch(() => undefined);
      await page.getByRole('listitem').filter({ has: page.getByText('Cedar', { exact: true }) }).getByText('Listening', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'managed agents with a turn\'s activity',
    open: async (page) => {
      await sidebar(page, 'Agents').click();
      const juniper = managedCard(page, 'Juniper');
      const turns = juniper.getByRole('list', { name: 'Turns, newest first' });
      await juniper.getByRole('button', { name: /^(Activity|Hide activity)$/ }).waitFor();
      if (!(await turns.count())) await juniper.getByRole('button', { name: 'Activity' }).click();
      // Its first turn; an automation's run (audited later, in light first) may have added another.
      await turns.getByText(/^Done · /).first().waitFor();
    },
  },
  {
    name: 'add agent dialog',
    open: async (page) => {
      await sidebar(page, 'Agents').click();
      await page.getByRole('button', { name: 'Add agent' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add agent' });
      await providersListed(dialog);
      // Codex is not installed here: its install hint shows too.
      await dialog.getByRole('radio', { name: /^Codex/ }).check();
      await dialog.getByText(/^Install Codex/).waitFor();
    },
    close: async (page) => {
      const dialog = page.getByRole('dialog', { name: 'Add agent' });
      if (!(await dialog.count())) return;
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    },
  },
  {
    // Juniper's automation (added here once), run once, with its runs open.
    name: 'automations with a run',
    open: async (page) => {
      await sidebar(page, 'Automations').click();
      const automation = page.getByRole('list', { name: 'Automations' }).locator('> li').filter({ hasText: 'Flag check' });
      // Loaded first (the list, or the words of none yet): in the second scheme it is there already.
      await automation.or(page.getByText(/^None yet\. Add one/)).first().waitFor();
      if (!(await automation.count())) {
        await page.getByRole('button', { name: 'Add automation' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add automation' });
        await dialog.getByRole('textbox', { name: 'Name' }).fill('Flag check');
        await dialog.getByRole('textbox', { name: 'What to do' }).fill('Check the flag defaults are documented.');
        await dialog.getByRole('button', { name: 'Add automation' }).click();
        await dialog.waitFor({ state: 'detached' });
        await automation.getByRole('button', { name: 'Run now' }).click();
        await automation.getByText(/· Done/).waitFor({ timeout: 30_000 });
      }
      const runs = automation.getByRole('list', { name: 'Runs, newest first' });
      if (!(await runs.count())) await automation.getByRole('button', { name: 'Runs' }).click();
      await runs.getByText('Run 1').waitFor();
    },
  },
  {
    name: 'add automation dialog',
    open: async (page) => {
      await sidebar(page, 'Automations').click();
      await page.getByRole('button', { name: 'Add automation' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add automation' });
      await dialog.getByRole('radio', { name: /A mention in a room/ }).check();
      await dialog.getByRole('combobox', { name: 'When it starts' }).selectOption({ label: 'When a check fails on a task’s pull request' });
      await dialog.getByText(/read with your GitHub sign-in/).waitFor();
    },
    close: async (page) => {
      const dialog = page.getByRole('dialog', { name: 'Add automation' });
      if (!(await dialog.count())) return;
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
    },
  },
  {
    name: 'needs you, with items the app raised',
    open: async (page) => {
      await nav(page).getByRole('button', { name: /Needs you/ }).click();
      await page.getByRole('heading', { name: 'Which night can the database move?' }).waitFor();
      await page.getByRole('heading', { name: "Fern hasn't picked up Dune's message" }).waitFor();
      await page.getByRole('heading', { name: 'Dune and Elm were paused: they kept messaging each other' }).waitFor();
    },
  },
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
    // A team from the environment whose database is down (nothing listens on port 1), tested, with the Add dialog open.
    name: 'teams settings',
    open: async (page) => {
      await sidebar(page, 'Settings').click();
      const team = page.getByRole('list', { name: 'Teams' }).getByRole('listitem', { name: 'nightly' });
      await team.getByText('Offline, reconnecting').waitFor();
      await team.getByRole('button', { name: 'Test connection' }).click();
      await team.getByRole('status').getByText(/^Not reachable:/).waitFor();
      await page.getByRole('button', { name: 'Add a team' }).click();
      await page.getByRole('dialog', { name: 'Add a team' }).getByLabel('Database URL').fill('postgres://ci:secret@db.example.com/ci');
    },
    close: (page) => page.getByRole('dialog', { name: 'Add a team' }).getByRole('button', { name: 'Cancel' }).click(),
  },
  {
    // Rooms grouped by place (this computer, and the team "nightly", offline): a new room in a chosen place.
    name: 'new room dialog',
    open: async (page) => {
      await nav(page).getByRole('button', { name: 'New room' }).click();
      const dialog = page.getByRole('dialog', { name: 'New room' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill('launch');
      await dialog.getByRole('combobox', { name: 'Place' }).selectOption({ label: 'Team nightly (Offline, reconnecting)' });
    },
    close: (page) => page.getByRole('dialog', { name: 'New room' }).getByRole('button', { name: 'Cancel' }).click(),
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
let model: FakeModel;
const loop: Agent[] = [];
const LOOP_ROOM = 'loopguard-room';

beforeAll(async () => {
  github = await startFakeGitHub();
  // A home folder where Claude Code and Codex look installed, so Connect agents shows both pill kinds.
  const home = tempDir('la-a11y-home-');
  mkdirSync(path.join(home, '.claude'));
  mkdirSync(path.join(home, '.codex'));
  // Managed agents: the real Claude Code on PATH (its model is a fake), Codex not installed
  // (no folder of PATH that holds it, node_modules/.bin included, is passed on).
  model = await startFakeModel('claude_code', home);
  const bin = tempDir('la-a11y-bin-');
  symlinkSync(path.join(CLI_BIN, 'claude'), path.join(bin, 'claude'));
  const withoutCodex = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '' && !existsSync(path.join(dir, 'codex')));
  app = await openApp({
    env: github.env({ ...model.env, HOME: home, PATH: [bin, ...withoutCodex].join(path.delimiter), LETAGENTS_TEAM_URL_NIGHTLY: 'postgres://ci:secret@127.0.0.1:1/ci' }),
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(loop.map((agent) => agent.close()));
  await room?.close();
  await app?.close();
  await github?.close();
  await model?.close();
});

/** Audits one view in one colour scheme: no violation, and nothing went wrong in the page. */
async function audit(view: AuditedView, scheme: 'light' | 'dark'): Promise<void> {
  const { page } = app;
  await page.emulateMedia({ colorScheme: scheme });
  try {
    await view.open(page);
    // Colours fade between schemes (button transitions): judge them once they have arrived.
    // A cancelled animation (its element left, a toast faded out) has ended too: its `finished` rejects.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))),
    );
    const violations = await axeViolations(page);
    await saveShot(page, `a11y-${scheme}-${view.name.replace(/\W+/g, '-')}`);
    expect(violations, violations.join('\n')).toEqual([]);
    expect(app.problems).toEqual([]);
  } finally {
    await view.close?.(page);
  }
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
    await page.getByRole('button', { name: 'Connect Claude Code', exact: true }).click();
    await page.getByRole('listitem').filter({ hasText: 'Claude Code' }).getByText('Set up', { exact: true }).waitFor();

    // A managed agent with one turn behind it: refused a file write (an error in its log), then answered.
    await sidebar(page, 'Agents').click();
    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await dialog.getByRole('textbox', { name: 'Name in the room' }).fill('Juniper');
    await dialog.getByRole('combobox', { name: 'Room' }).selectOption(BUSY_ROOM);
    const folder = tempDir('la-a11y-work-');
    await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(folder);
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    model.script.push('Juniper', callBuiltInTool('Write', { file_path: path.join(folder, 'notes.md'), content: 'x' }), ...replyInRoom('The flag defaults are documented.'));
    const juniper = managedCard(page, 'Juniper');
    await juniper.getByRole('button', { name: 'Run now' }).click();
    await juniper.getByRole('button', { name: 'Activity' }).click();
    await juniper.getByRole('list', { name: 'Turns, newest first' }).getByText(/^Done · /).waitFor({ timeout: 30_000 });

    // Delivery (issue 14): Atlas reads the room (receipts); in a second room two agents trip the
    // loop guard, one mention goes unpicked, and the room has a daily budget.
    // With Juniper (managed) the room has four agents: agents' unaddressed chatter routes to no
    // one (issue 25), so the receipts shown are those of a mention.
    await room.birch.call('send_message', { text: '@Atlas the release checklist is done.' });
    await room.atlas.call('read_messages', { limit: 50 });
    await setDeliveryLimits(page, { unansweredAfterSeconds: 1, loopGuardMessages: 3 });
    // One after another: the app names paused agents in the order they joined the room.
    for (const name of ['Dune', 'Elm', 'Fern']) loop.push(await joinAgent(app.serve.dataDir, { room: LOOP_ROOM, name }));
    const [dune, elm] = loop;
    for (let i = 0; i < 4; i++) await (i % 2 ? elm : dune).call('send_message', { text: `${i % 2 ? '@Dune' : '@Elm'} round ${i + 1}` });
    await dune.call('send_message', { text: '@Fern can you check the staging logs?' });
    await roomButton(page, LOOP_ROOM).click();
    await page.getByRole('button', { name: 'Room actions' }).click();
    await page.getByRole('menuitem', { name: 'Token budget…' }).click();
    const budget = page.getByRole('dialog', { name: `Token budget for ${LOOP_ROOM}` });
    await budget.getByRole('textbox', { name: 'Tokens a day (empty: no budget)' }).fill('1000');
    await budget.getByRole('button', { name: 'Save budget' }).click();
    await budget.waitFor({ state: 'detached' });
    await nav(page).getByRole('button', { name: /Needs you/ }).click();
    await page.getByRole('heading', { name: "Fern hasn't picked up Dune's message" }).waitFor({ timeout: 15_000 });
  }, 120_000);

  it.each(cases(false))('%s has no axe violations', (_name, view, scheme) => audit(view, scheme), 30_000);
});
