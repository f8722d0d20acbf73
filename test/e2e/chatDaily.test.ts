// The chat as a daily tool (issue 16), with an agent on a real helper connection: your own
// message always comes into view and is never "new"; the room's unread badge counts
// neither your own actions nor replies in the thread you have open; very long messages
// collapse with "Show more"; code scrolls sideways inside its block instead of widening
// the page; a message over the size limit is refused in words a person reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { joinAgent, type Agent } from './lib/agents';
import { openThread } from './lib/chat';
import { openApp, roomButton, type AppSession } from './lib/app';
import { card, column } from './lib/board';
import { saveShot } from './lib/shots';

const ROOM = 'daily-chat';
let app: AppSession;
let juniper: Agent;

beforeAll(async () => {
  app = await openApp();
  juniper = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Juniper' });
  for (let i = 1; i <= 40; i++) await juniper.call('send_message', { text: `Progress note ${i}.` });
  await roomButton(app.page, ROOM).click();
  await timeline().getByText('Progress note 40.').waitFor();
}, 90_000);

afterAll(async () => {
  await juniper?.close();
  await app?.close();
});

const timeline = () => app.page.getByRole('region', { name: 'Messages' });
const message = (text: string) => timeline().getByRole('article').filter({ hasText: text });
const badge = () => roomButton(app.page, ROOM).locator('.count');

/** In the viewport, and what is drawn at its centre belongs to it (nothing covers it). */
const onTop = (target: Locator) =>
  target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
    return inside && el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + Math.min(r.height / 2, 20)));
  });

describe('a burst of messages', () => {
  const fromEnd = () => timeline().evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

  it('keeps the chat at the bottom when you were there', async () => {
    await timeline().evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(fromEnd).toBeLessThan(40);
    // Long and short, with Markdown, as agents write them: rows are measured after they are drawn.
    // A second agent reads each one as it comes, so receipts appear under rows already drawn.
    const cedar = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Cedar' });
    for (let i = 0; i < 16; i++) {
      await juniper.call('send_message', { text: `Burst ${i + 1}:\n\n- checked \`src/a${i}.ts\`\n- ${'and more words '.repeat(i % 4 * 6)}` });
      await cedar.call('read_messages', { limit: 3 });
    }
    await message('Burst 16:').waitFor();
    await message('Burst 16:').getByText(/Seen by/).waitFor();
    await cedar.close();
    await expect.poll(fromEnd).toBeLessThan(40);
    expect(await app.page.getByRole('button', { name: /new message/ }).count()).toBe(0);
  });

  it('shows the new-messages pill instead when you had scrolled up, and it takes you down', async () => {
    await timeline().evaluate((el) => (el.scrollTop = 0));
    // As a reader's scroll would be, it is taken in (its scroll event handled) before the next message.
    await app.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await juniper.call('send_message', { text: 'One more after the burst.' });
    const pill = app.page.getByRole('button', { name: /1 new message/ });
    await pill.waitFor();
    await pill.click();
    await expect.poll(fromEnd).toBeLessThan(40);
    await expect.poll(() => onTop(message('One more after the burst.'))).toBe(true);
  });
});

describe('your own messages', () => {
  it('come into view even when you had scrolled up, and never count as new', async () => {
    const { page } = app;
    await timeline().evaluate((el) => (el.scrollTop = 0));
    await message('Progress note 1.').waitFor();
    const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await box.fill('Read all of it, thanks.');
    await box.press('Enter');
    const mine = message('Read all of it, thanks.');
    await mine.waitFor();
    await expect.poll(() => onTop(mine)).toBe(true);
    expect(await page.getByRole('button', { name: /new message/ }).count()).toBe(0);
    await saveShot(page, 'own-message-in-view');
  });
});

describe('the unread badge', () => {
  it("counts neither the person's own actions nor replies in the thread they have open", async () => {
    const { page } = app;
    const proposal = await juniper.call('add_task', { title: 'Rotate the API keys' });
    await page.getByRole('tab', { name: 'Board' }).click();
    await card(column(page, 'Proposed'), proposal.task.id).getByRole('button', { name: 'Accept' }).click();
    await card(column(page, 'Accepted'), proposal.task.id).waitFor();
    // The chat is not on screen, so nothing marks the room read: the person's own act is simply not news.
    // (An agent's news does count, in another room; once it shows, the list has caught up.)
    const elsewhere = await joinAgent(app.serve.dataDir, { room: 'elsewhere', name: 'Cedar' });
    await elsewhere.call('send_message', { text: 'News from elsewhere.' });
    await roomButton(page, 'elsewhere').getByLabel(/^\d+ unread$/).waitFor();
    expect(await badge().count()).toBe(0);
    await page.getByRole('tab', { name: 'Chat' }).click();
    // Named by its task, so a retry of this test finds its own line, not the first try's.
    await message(`${proposal.task.id} moved from Proposed to Accepted`).waitFor();

    // A thread open, an agent replies in it: read as it arrives.
    const question = `Which keys first (${proposal.task.id})?`;
    const root = await juniper.call('send_message', { text: question });
    await openThread(message(question));
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await thread.getByText(question).waitFor();
    const last = `Then production (${proposal.task.id}).`;
    for (const text of ['The staging ones.', last]) await juniper.call('send_thread_message', { thread_parent_id: root.id, text });
    await thread.getByText(last).waitFor();
    // Any badge of the replies goes as the read marker's round trip ends (never stays, as it did).
    await page.waitForTimeout(500);
    await expect.poll(() => badge().count(), { timeout: 15_000 }).toBe(0);
    await saveShot(page, 'unread-own-actions-and-open-thread');
    await thread.getByRole('button', { name: 'Close thread' }).click();
    await elsewhere.close();
  });
});

describe('long messages and code', () => {
  it('collapses a message of more than 30 lines with "Show more", and opens it whole', async () => {
    const { page } = app;
    await juniper.call('send_message', { text: ['Full log:', ...Array.from({ length: 60 }, (_, i) => `- step ${i + 1} passed`)].join('\n') });
    const long = message('Full log:');
    const more = long.getByRole('button', { name: 'Show more' });
    await more.waitFor();
    const text = long.locator('.message-text');
    const clipped = () => text.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
    expect(await clipped()).toBe(true);
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    await long.getByRole('button', { name: 'Show less' }).waitFor();
    expect(await clipped()).toBe(false);
    await saveShot(page, 'long-message-open');
    // A short message has no such button.
    expect(await message('Read all of it, thanks.').getByRole('button', { name: /Show (more|less)/ }).count()).toBe(0);
  });

  it('scrolls a wide code block sideways inside it, in the timeline and in a thread, never the page', async () => {
    const { page } = app;
    const wide = `\`\`\`ts\n${'const veryLongIdentifierName = anotherVeryLongFunctionName(argumentNumberOne); '.repeat(12)}\n\`\`\``;
    const posted = await juniper.call('send_message', { text: `Wide code:\n\n${wide}` });
    await juniper.call('send_thread_message', { thread_parent_id: posted.id, text: `In the thread too:\n\n${wide}` });
    const inTimeline = message('Wide code:');
    await inTimeline.waitFor();
    const scrollsInside = (block: Locator) => block.evaluate((pre) => pre.scrollWidth > pre.clientWidth && pre.getBoundingClientRect().right <= innerWidth);
    expect(await scrollsInside(inTimeline.locator('pre'))).toBe(true);
    await inTimeline.getByRole('button', { name: /1 reply/ }).click();
    const thread = page.getByRole('complementary', { name: 'Thread' });
    const reply = thread.getByRole('article').filter({ hasText: 'In the thread too:' });
    await reply.waitFor();
    expect(await scrollsInside(reply.locator('pre'))).toBe(true);
    const sideways = await page.evaluate(() =>
      [document.documentElement, ...document.querySelectorAll<HTMLElement>('.main, .chat-main, .timeline, .side-panel-body')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.className || el.localName),
    );
    expect(sideways).toEqual([]);
    await saveShot(page, 'wide-code-scrolls-inside');
    await thread.getByRole('button', { name: 'Close thread' }).click();
  });
});

describe('a message over the size limit', () => {
  it('is refused with its size and the limit in KB, and nothing is posted', async () => {
    const { page } = app;
    const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
    // 154 112 two-byte letters: 308 224 bytes, 301 KB.
    await box.fill('é'.repeat(154_112));
    await box.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'This message is 301 KB; the limit is 256 KB.' }).waitFor();
    expect(await box.inputValue()).toHaveLength(154_112); // kept, to shorten
    expect(await timeline().getByRole('article').filter({ hasText: 'éééé' }).count()).toBe(0);
    await box.fill('');
    expect(app.problems).toEqual([]);
  });
});
