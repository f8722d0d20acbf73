// Daily use, round 2 (issue 27), in Chromium at 1280×800 with agents on real helper
// connections: the chat stays at the bottom through a burst (or says "new messages" when the
// person had scrolled up); receipts show on the newest message of a run and room events fold;
// header chips keep names whole with "+N more" on one line; the board uses its width with one
// busy column; at 800 px the sidebar gives up width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPool } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { column } from './lib/board';
import { openChat, postAsPerson } from './lib/chat';
import { saveShot } from './lib/shots';

let app: AppSession;
const agents = agentPool(() => app.serve.dataDir);

beforeAll(async () => {
  app = await openApp({ width: 1280, height: 800 });
}, 60_000);

afterAll(async () => {
  await agents.closeAll();
  await app?.close();
});

const timeline = () => app.page.getByRole('region', { name: 'Messages' });
const message = (text: string) => timeline().getByRole('article').filter({ hasText: text });
const distanceFromEnd = () => timeline().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

describe('a burst of messages', () => {
  it('keeps the chat at the bottom when the person was there', async () => {
    const juniper = await agents.join('burst-room', 'Juniper');
    for (let i = 1; i <= 10; i++) await juniper.call('send_message', { text: `Warm-up ${i}.` });
    await openChat(app.page, 'burst-room');
    await message('Warm-up 10.').waitFor();
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    // 16 quick messages of different heights, sent without waiting for the page.
    const texts = Array.from({ length: 16 }, (_, i) => (i % 3 === 0 ? `Burst ${i + 1}:\n\n- one\n- two\n- three\n\n\`\`\`\ncode ${i + 1}\n\`\`\`` : `Burst ${i + 1}.`));
    await Promise.all(texts.map((text) => juniper.call('send_message', { text })));
    await message('Burst 16').waitFor();
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    expect(await app.page.getByRole('button', { name: /new message/ }).count()).toBe(0);
    await saveShot(app.page, 'burst-at-bottom');
  });

  it('leaves the person where they scrolled, with a "new messages" pill that brings them down', async () => {
    const { page } = app;
    const juniper = agents.joined[0];
    await timeline().evaluate((el) => (el.scrollTop = 0));
    await expect.poll(distanceFromEnd).toBeGreaterThan(300);
    const before = await timeline().evaluate((el) => el.scrollTop);
    for (let i = 1; i <= 5; i++) await juniper.call('send_message', { text: `While you read ${i}.` });
    const pill = page.getByRole('button', { name: '5 new messages' });
    await pill.waitFor();
    expect(await timeline().evaluate((el) => el.scrollTop)).toBe(before);
    await pill.click();
    await message('While you read 5.').waitFor();
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    await expect.poll(() => pill.count()).toBe(0);
  });
});

describe('receipts and room events', () => {
  it('shows receipts on the newest message of a run only, the others on hover or focus', async () => {
    const { page } = app;
    const atlas = await agents.join('receipt-runs', 'Atlas');
    await openChat(app.page, 'receipt-runs');
    for (const text of ['First point.', 'Second point.', 'Third point.']) await postAsPerson(app.page, 'receipt-runs', text);
    await atlas.call('read_messages', { limit: 10 });
    const seen = (text: string) => message(text).getByRole('button', { name: 'Seen by Atlas' });
    await seen('Third point.').waitFor();
    expect(await seen('First point.').isVisible()).toBe(false);
    expect(await seen('Second point.').isVisible()).toBe(false);
    await message('First point.').hover();
    await seen('First point.').waitFor();
    // Keyboard: focus on the message shows its receipts too, and Tab reaches them.
    await page.mouse.move(0, 0);
    await message('Second point.').focus();
    await seen('Second point.').waitFor();
    await saveShot(page, 'receipts-on-newest-of-run');
  });

  it('folds a run of room events into "N board updates" that opens in place', async () => {
    const { page } = app;
    const atlas = agents.joined.at(-1)!;
    for (let i = 1; i <= 4; i++) await atlas.call('add_task', { title: `Chore ${i}` });
    await atlas.call('send_message', { text: 'Those are the chores.' });
    await message('Those are the chores.').waitFor();
    const fold = timeline().getByRole('button', { name: '4 board updates' });
    await fold.waitFor();
    expect(await fold.getAttribute('aria-expanded')).toBe('false');
    expect(await timeline().getByText(/proposed task_\d+: Chore 2/).count()).toBe(0);
    await fold.click();
    const hide = timeline().getByRole('button', { name: 'Hide 4 board updates' });
    await hide.waitFor();
    expect(await hide.getAttribute('aria-expanded')).toBe('true');
    for (let i = 1; i <= 4; i++) await timeline().getByText(new RegExp(`proposed task_\\d+: Chore ${i}`)).waitFor();
    await saveShot(page, 'room-events-unfolded');
  });
});

describe('the room header at 1280 px', () => {
  it('keeps agent names whole, drops status text first, and "+N more" stays on one line', async () => {
    const { page } = app;
    const names = ['Birchwood', 'Juniperberry', 'Cedarwood', 'Maplewood'];
    for (const name of names) {
      const a = await agents.join('chips-room', name);
      await a.call('post_status', { status: `reviewing the payment webhook retries and the dead-letter table for ${name}` });
    }
    await openChat(app.page, 'chips-room');
    const presence = page.getByRole('list', { name: '4 agents online' });
    await presence.waitFor();
    const chipNames = presence.locator('.agent-chip-name');
    await expect.poll(() => chipNames.count()).toBe(3);
    for (const el of await chipNames.all()) {
      expect(await el.evaluate((n) => n.scrollWidth <= n.clientWidth && n.getBoundingClientRect().right <= n.closest('ul')!.getBoundingClientRect().right + 0.5)).toBe(true);
      expect(names).toContain(await el.textContent());
    }
    const more = presence.getByRole('button', { name: '+1 more' });
    const lines = await more.evaluate((b) => Math.round(b.getBoundingClientRect().height / parseFloat(getComputedStyle(b).lineHeight || '18')));
    expect(lines).toBeLessThanOrEqual(1);
    expect(await more.evaluate((b) => b.getBoundingClientRect().right <= b.closest('ul')!.getBoundingClientRect().right + 0.5)).toBe(true);
    // The status text went first; the token line is not in the header.
    expect(await presence.locator('.agent-chip-text:visible').count()).toBe(0);
    expect(await page.locator('.room-header').getByText(/tokens today/).count()).toBe(0);
    await saveShot(page, 'header-chips-1280');
  });
});

describe('layout', () => {
  it('lets one busy board column use the width instead of leaving it blank', async () => {
    const { page } = app;
    const oak = await agents.join('busy-board', 'Oak');
    for (let i = 1; i <= 8; i++) await oak.call('add_task', { title: `Idea ${i}` });
    await roomButton(page, 'busy-board').click();
    await page.getByRole('tab', { name: 'Board' }).click();
    const proposed = column(page, 'Proposed');
    await proposed.getByText('Idea 8').waitFor();
    // One busy column, the others strips: it takes the room (it stopped at 300 px, leaving ~400 px blank).
    const width = await proposed.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeGreaterThan(500);
    // The cards sit side by side rather than in one stretched line.
    const lefts = await proposed.getByRole('article').evaluateAll((cards) => new Set(cards.map((c) => Math.round(c.getBoundingClientRect().left))).size);
    expect(lefts).toBeGreaterThan(1);
    await saveShot(page, 'board-one-busy-column');
  });

  it('narrows the sidebar in an 800 px window', async () => {
    const { page } = app;
    await page.setViewportSize({ width: 800, height: 600 });
    const width = await page.getByRole('navigation', { name: 'LetAgents' }).evaluate((nav) => nav.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(200);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(app.problems).toEqual([]);
  });

  it('keeps focus in "Add a team" after a failed "Test and add", so Escape still closes it', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Add a team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a team' });
    await dialog.getByRole('textbox', { name: 'Team name' }).fill('nowhere');
    await dialog.getByLabel('Database URL').fill('postgres://postgres@127.0.0.1:1/nowhere');
    await dialog.getByRole('button', { name: 'Test and add' }).click();
    await dialog.getByRole('alert').waitFor({ timeout: 30_000 });
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(app.problems).toEqual([]);
  });
});
