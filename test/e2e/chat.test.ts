// The room chat with agents on real MCP connections: an agent's message appears live in the
// open room, the person's reply in a thread reaches the agent's wait_for_messages, and
// search (the room header's search button) finds a message far up the timeline and scrolls
// to it, closing its results so nothing covers the message, and a reader
// scrolled up keeps their place while a "1 new message" pill offers the newest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAgent, currentCursor, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { openThread } from './lib/chat';
import { saveShot } from './lib/shots';

const ROOM = 'launch-plan';
let app: AppSession;
let juniper: Agent;

beforeAll(async () => {
  app = await openApp();
  juniper = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Juniper' });
  await juniper.call('send_message', { text: 'Morning! I am on the release notes.' });
  await roomButton(app.page, ROOM).click();
  await app.page.getByRole('region', { name: 'Messages' }).getByText('Morning! I am on the release notes.').waitFor();
}, 60_000);

afterAll(async () => {
  await juniper?.close();
  await app?.close();
});

describe('chat with a live agent', () => {
  it("shows an agent's new message in the open room without a reload", async () => {
    const { page } = app;
    const sent = await juniper.call('send_message', { text: 'Pushed the **changelog** draft for review.' });
    expect(sent.id).toMatch(/^msg_\d+$/);
    const timeline = page.getByRole('region', { name: 'Messages' });
    const message = timeline.getByRole('article').filter({ hasText: 'Pushed the changelog draft for review.' });
    await message.waitFor();
    await expect.poll(() => message.locator('strong').textContent()).toBe('changelog');
    expect(await message.getAttribute('aria-label')).toMatch(/^Juniper, /);
    await saveShot(page, 'agent-message-live');
    expect(app.problems).toEqual([]);
  });

  it("delivers the person's thread reply to the agent waiting for messages", async () => {
    const { page } = app;
    const root = await juniper.call('send_message', { text: 'Should the notes cover the beta flags?' });
    const cursor = await currentCursor(juniper);
    const waiting = juniper.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });

    const question = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'Should the notes cover the beta flags?' });
    await openThread(question);
    const thread = page.getByRole('complementary', { name: 'Thread' });
    await thread.getByText('Should the notes cover the beta flags?').waitFor();
    const box = thread.getByRole('combobox', { name: 'Reply in thread' });
    await box.fill('Yes, list each flag with its default.');
    await box.press('Enter');
    await thread.getByRole('article').filter({ hasText: 'Yes, list each flag with its default.' }).waitFor();
    await thread.getByText('1 reply').waitFor();

    const woke = await waiting;
    const reply = woke.messages.find((m: { text: string }) => m.text === 'Yes, list each flag with its default.');
    expect(reply, JSON.stringify(woke)).toBeTruthy();
    expect(reply.thread_root_id).toBe(root.id);
    expect(reply.source).toBe('human');
    expect(reply.activation.for_current_agent.decision).toBe('activate');
    await saveShot(page, 'thread-reply-reaches-agent');
    expect(app.problems).toEqual([]);
  });

  it('finds a message with search and scrolls the timeline to it', async () => {
    const { page } = app;
    await juniper.call('send_message', { text: 'The flamingo build flag stays off until the beta ends.' });
    for (let i = 1; i <= 60; i++) await juniper.call('send_message', { text: `Progress note ${i}: nothing unusual.` });
    const timeline = page.getByRole('region', { name: 'Messages' });
    await timeline.getByText('Progress note 60: nothing unusual.').waitFor();
    const target = timeline.getByRole('article').filter({ hasText: 'The flamingo build flag stays off' });
    expect(await target.count()).toBe(0); // far above the window of rendered rows

    await page.getByRole('button', { name: 'Search this room' }).click();
    const search = page.getByRole('searchbox', { name: 'Search messages in this room' });
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill('flamingo');
    const results = page.getByRole('search');
    await results.getByRole('status').getByText('1 match').waitFor();
    const hit = results.getByRole('button', { name: /flamingo build flag/ });
    expect(await hit.locator('mark').allTextContents()).toEqual(['flamingo']);
    await saveShot(page, 'search-results');

    await hit.click();
    await target.waitFor();
    await page.getByRole('search').waitFor({ state: 'detached' });
    await expect.poll(() => target.getAttribute('class')).toContain('message-highlight');
    // In view and not covered (by the search results or anything else).
    const onTop = () =>
      target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
    await expect.poll(onTop).toBe(true);
    await saveShot(page, 'search-scrolls-to-message');
    expect(app.problems).toEqual([]);
  });

  it('keeps the place of a reader scrolled up and offers "1 new message" instead', async () => {
    const { page } = app;
    const target = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'The flamingo build flag stays off' });
    const before = (await target.boundingBox())!.y;
    await juniper.call('send_message', { text: 'A late note while you read.' });
    const pill = page.getByRole('button', { name: '1 new message' });
    await pill.waitFor();
    expect((await target.boundingBox())!.y).toBe(before);
    await pill.click();
    await page.getByRole('region', { name: 'Messages' }).getByText('A late note while you read.').waitFor();
    await pill.waitFor({ state: 'detached' });
    expect(app.problems).toEqual([]);
  });
});
