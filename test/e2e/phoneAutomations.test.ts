// The phone's Automations tab (issue 37), end to end in Chromium: a real `serve` with two
// automations added from the command line (each mentions the room's agents, so no model is
// involved), one already run; phone access on 127.0.0.2 (the stand-in for the LAN) and a Pixel 7
// (viewport, touch, the app's certificate pinned by its public-key hash) paired by the link
// `phone pair` prints. The tab lists each automation's name, room, next and last run with the
// outcome; Pause and Resume work by touch and by keyboard alone (what a device key may call:
// automations.list, .pause, .resume), and the desktop's list agrees; axe finds nothing at 412 and
// 360 px, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Automation } from '../../src/shared/model/automations';
import { cleanupSpawned, ensureCliBuilt, runCli, startServe, type ServeHandle } from '../support';
import { joinAgent, type Agent } from './lib/agents';
import { expectNoViolationsInBothSchemes } from './lib/axe';
import { pressUntilFocused } from './lib/keyboard';
import { pairedPhone, type Phone } from './lib/phone';
import { saveShot } from './lib/shots';
import { timeWordsBetween } from './lib/timeWords';

const ROOM = 'nightly-ops';
let serve: ServeHandle;
let cedar: Agent;
let phone: Phone;

const cli = (...args: string[]) => runCli([...args, '--data-dir', serve.dataDir]);
const listed = async (): Promise<Automation[]> => JSON.parse((await cli('automation', 'list', '--json')).stdout);

beforeAll(async () => {
  await ensureCliBuilt();
  serve = await startServe();
  cedar = await joinAgent(serve.dataDir, { room: ROOM, name: 'Cedar' });
  for (const [name, every] of [['Standup', '15m'], ['Dependency check', '2h']]) {
    const added = await cli('automation', 'add', '--room', ROOM, '--name', name, '--mention', 'agents', '--every', every, '--instructions', 'Say what you work on.');
    expect(added.stderr).toBe('');
  }
  expect((await cli('automation', 'run', 'Standup')).stdout).toBe('"Standup": Active; run #1 done\n');
  phone = await pairedPhone(serve.dataDir);
}, 90_000);

afterAll(async () => {
  await phone?.close();
  await cedar?.close();
  await serve?.stop();
  await cleanupSpawned();
});

describe("the phone's Automations tab", () => {
  it('lists each automation with its room, next run and last run, and pauses and resumes one by touch', async () => {
    const { page } = phone;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Automations' }).tap();
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    const standup = page.getByRole('article', { name: 'Standup' });
    const check = page.getByRole('article', { name: 'Dependency check' });
    await standup.getByText(`Every 15 minutes in ${ROOM}`).waitFor();
    await check.getByText(`Every 2 hours in ${ROOM}`).waitFor();
    // Next run ahead, in the reader's words; the last run's outcome, or none yet. The words are the
    // app's for the moments it reported: "in 15 min" and "just now" hold only while the set-up takes
    // under 30 s and 45 s (a loaded CI machine may take longer), so any reading of them since then is right.
    const listedStandup = (await listed()).find((a) => a.name === 'Standup')!;
    expect(Date.parse(listedStandup.nextRunAt!) - Date.parse(listedStandup.createdAt)).toBe(15 * 60_000);
    const readFrom = Date.now();
    const [nextRun, lastRun] = [await standup.locator('dt:has-text("Next run") + dd').textContent(), await standup.locator('dt:has-text("Last run") + dd').textContent()];
    const readTo = Date.now();
    expect(timeWordsBetween(listedStandup.nextRunAt!, readFrom, readTo, { until: true })).toContain(nextRun);
    expect(timeWordsBetween(listedStandup.lastRun!.startedAt, readFrom, readTo).map((w) => `${w} · Done · Open the reply`)).toContain(lastRun);
    expect(await check.locator('dt:has-text("Last run") + dd').textContent()).toBe('none yet');
    await expectNoViolationsInBothSchemes(phone.page, 'the list');
    await saveShot(page, 'phone-automations');

    await standup.getByRole('button', { name: 'Pause' }).tap();
    await standup.getByText('Paused', { exact: true }).waitFor();
    await standup.getByText('none while paused').waitFor();
    // Said aloud through the announcer (screen readers hear each notice once, when it is made).
    await page.getByRole('log').getByText('Standup: Paused: no runs until you resume it.').waitFor({ state: 'attached' });
    // The app paused it: the command line (and so the desktop) sees the same.
    expect((await listed()).find((a) => a.name === 'Standup')).toMatchObject({ state: 'paused', nextRunAt: null });
    await expectNoViolationsInBothSchemes(phone.page, 'a paused automation');
    await standup.getByRole('button', { name: 'Resume' }).tap();
    await standup.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await listed()).find((a) => a.name === 'Standup')).toMatchObject({ state: 'active' });
    expect(phone.problems, phone.problems.join('\n')).toEqual([]);
  }, 60_000);

  it('follows a change made elsewhere, live', async () => {
    expect((await cli('automation', 'pause', 'Dependency check')).stdout).toBe('"Dependency check": Paused\n');
    const check = phone.page.getByRole('article', { name: 'Dependency check' });
    await check.getByRole('button', { name: 'Resume' }).waitFor();
    await check.getByText('Paused', { exact: true }).waitFor();
  }, 30_000);

  it('is reachable by keyboard alone: the tab, then Resume', async () => {
    const { page } = phone;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Rooms' }).tap();
    await page.getByRole('heading', { name: 'Rooms', level: 1 }).waitFor();
    await pressUntilFocused(page, 'Tab', page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Automations' }));
    await page.keyboard.press('Enter');
    // The tab bar comes last in the page: back up from it into the list.
    const check = page.getByRole('article', { name: 'Dependency check' });
    await pressUntilFocused(page, 'Shift+Tab', check.getByRole('button', { name: 'Resume' }));
    await page.keyboard.press('Enter');
    await check.getByRole('button', { name: 'Pause' }).waitFor();
    expect((await listed()).find((a) => a.name === 'Dependency check')).toMatchObject({ state: 'active' });
  }, 30_000);

  it('fits a 360 px phone: no sideways scrolling, every button a thumb can hit, axe in both schemes', async () => {
    const { page } = phone;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Automations' }).tap();
    await page.getByRole('article', { name: 'Standup' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const small = await page.evaluate(() =>
      [...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null).map((b) => ({ name: b.textContent?.trim() || b.getAttribute('aria-label'), h: b.getBoundingClientRect().height })).filter((b) => b.h < 44),
    );
    expect(small).toEqual([]);
    // Four tabs now: each label still fits its tab.
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('.phone-tab > span:not(.count)')].filter((label) => label.getBoundingClientRect().width > label.parentElement!.clientWidth || label.getClientRects().length > 1).map((label) => label.textContent),
    );
    expect(cut).toEqual([]);
    await saveShot(page, 'phone-automations-360');
    await expectNoViolationsInBothSchemes(phone.page, '360 px');
    expect(phone.problems, phone.problems.join('\n')).toEqual([]);
  }, 30_000);
});
