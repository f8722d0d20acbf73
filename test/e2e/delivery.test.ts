// Delivery you can see (issue 14), end to end: agents on real helper connections against a
// real serve, the person in Chromium. Receipts appear under a message as agents read it; an
// agent inside wait_for_messages shows as listening, then working; a mention nobody picks up
// becomes a "Needs you" item whose reminder wakes the agent once it waits; two agents that
// answer each other without end trip the loop guard and stop being woken; and the token
// meter counts what an agent received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPool, currentCursor } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { openChat, openThread, postAsPerson } from './lib/chat';
import { pingPong, setDeliveryLimits } from './lib/delivery';
import { saveShot } from './lib/shots';

let app: AppSession;
const agents = agentPool(() => app.serve.dataDir);

beforeAll(async () => {
  app = await openApp();
}, 60_000);

afterAll(async () => {
  await agents.closeAll();
  await app?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'LetAgents' });

/** Opens the room's chat and posts `text` as the person; returns the message's article. */
async function postInRoom(room: string, text: string) {
  await openChat(app.page, room);
  return postAsPerson(app.page, room, text);
}

describe('receipts', () => {
  it('appear live under a message as agents read it, with times on focus, in the chat and the thread', async () => {
    const { page } = app;
    const atlas = await agents.join('receipts-room', 'Atlas');
    const birch = await agents.join('receipts-room', 'Birch');
    const message = await postInRoom('receipts-room', 'Who can look at the flaky login test?');
    await message.getByRole('button', { name: 'Not seen yet: waiting for Atlas, Birch' }).waitFor();

    await atlas.call('read_messages', { limit: 5 });
    await message.getByRole('button', { name: 'Seen by Atlas · waiting for Birch' }).waitFor();
    const first = await birch.call('wait_for_messages', { timeout: 2000 });
    expect(first.messages.map((m: { text: string }) => m.text)).toContain('Who can look at the flaky login test?');
    const line = message.getByRole('button', { name: 'Seen by Atlas, Birch' });
    await line.waitFor();

    // Focus shows when each got it, as the tooltip the line is described by.
    await line.focus();
    const times = message.getByRole('tooltip');
    await times.getByText(/^Atlas: got it at \d\d:\d\d:\d\d$/).waitFor();
    await times.getByText(/^Birch: got it at \d\d:\d\d:\d\d$/).waitFor();
    expect(await line.getAttribute('aria-describedby')).toBe(await times.getAttribute('id'));
    await saveShot(page, 'receipts-seen');

    // An agent can ask the same: did Birch get it?
    const id = first.messages.find((m: { text: string }) => m.text.startsWith('Who can look'))!.id;
    const status = await atlas.call('get_message_status', { message_id: id, agent: 'Birch' });
    expect(status.recipients).toEqual([{ agent: 'Birch', delivered_at: expect.any(String), reachability: 'working' }]);

    // The thread panel shows the root's receipts too.
    await openThread(message);
    await page.getByRole('complementary', { name: 'Thread' }).getByRole('button', { name: 'Seen by Atlas, Birch' }).waitFor();
    expect(app.problems).toEqual([]);
  });
});

describe('reachability', () => {
  it('shows an agent inside wait_for_messages as listening, and as working once its wait returned', async () => {
    const { page } = app;
    const juniper = await agents.join('reach-room', 'Juniper');
    const cedar = await agents.join('reach-room', 'Cedar');
    const cursor = await currentCursor(juniper);
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    const row = page.getByRole('listitem').filter({ has: page.getByText('Juniper', { exact: true }) });
    const waiting = juniper.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
    await row.getByText('Listening', { exact: true }).waitFor();
    await row.getByText('Waiting for messages now: a mention wakes it at once.').waitFor();
    // Listening agents come first in the roster.
    expect(await page.locator('.agent-name').first().textContent()).toBe('Juniper');
    await saveShot(page, 'reachability-listening');

    await cedar.call('send_message', { text: '@Juniper the build is green' });
    expect((await waiting).messages).toHaveLength(1);
    await row.getByText('Working', { exact: true }).waitFor();
    await row.getByText('Called a tool in the last 2 minutes and is not waiting: it sees news on its next call.').waitFor();
    expect(app.problems).toEqual([]);
  });
});

describe('unanswered mentions', () => {
  it('become a "Needs you" item after the limit; Remind wakes the agent once it waits, and the item goes', async () => {
    const { page } = app;
    await setDeliveryLimits(page, { unansweredAfterSeconds: 2 });
    const fern = await agents.join('nudge-room', 'Fern');
    const cursor = await currentCursor(fern);
    await postInRoom('nudge-room', '@Fern please rerun the migration');

    await nav().getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('article', { name: "Not picked up from Fern: Fern hasn't picked up your message" });
    await item.waitFor({ timeout: 15_000 });
    await item.getByText('Read the LetAgents room nudge-room and reply to', { exact: false }).waitFor();
    await item.getByRole('button', { name: 'Copy prompt' }).waitFor();
    await saveShot(page, 'needs-you-unanswered');
    await item.getByRole('button', { name: 'Remind' }).click();
    await item.getByText(/^Reminded/).waitFor();

    const woke = await fern.call('wait_for_messages', { after_message_id: cursor, timeout: 30_000 });
    expect(woke.messages.map((m: { text: string }) => m.text)).toEqual([
      '@Fern please rerun the migration',
      expect.stringMatching(/^@Fern a reminder: please read msg_\d+ and reply\.$/),
    ]);
    await item.waitFor({ state: 'detached' });
    expect(app.problems).toEqual([]);
  });
});

describe('the loop guard', () => {
  it('stops two scripted agents answering each other past the limit; the room says why, and Resume lifts it', async () => {
    const { page } = app;
    await setDeliveryLimits(page, { loopGuardMessages: 4 });
    const dune = await agents.join('loopguard-room', 'Dune');
    const elm = await agents.join('loopguard-room', 'Elm');
    const [duneCursor, elmCursor] = await Promise.all([currentCursor(dune), currentCursor(elm)]);
    const loops = Promise.all([pingPong(dune, 'Elm', duneCursor, 3000), pingPong(elm, 'Dune', elmCursor, 3000)]);
    await postInRoom('loopguard-room', '@Dune start the ping-pong');
    const [fromDune, fromElm] = await loops;

    // Four messages within the limit, the fifth went past it: stored, but it woke no one.
    expect(fromDune.length + fromElm.length).toBe(5);
    const last = [...fromDune, ...fromElm].sort((a, b) => Number(String(a.id).slice(4)) - Number(String(b.id).slice(4))).at(-1)!;
    expect(last).toMatchObject({ loop_paused: true, notice: expect.stringMatching(/^Stored, but it wakes none of (Dune|Elm)/) });

    await roomButton(page, 'loopguard-room').click();
    const banner = page.getByRole('status').filter({ hasText: 'The loop guard paused Dune and Elm.' });
    await banner.waitFor();
    await page.getByRole('region', { name: 'Messages' }).getByText(/^The loop guard paused Dune and Elm: 5 messages within 10 minutes/).waitFor();
    await saveShot(page, 'loop-guard-banner');
    await nav().getByRole('button', { name: /Needs you/ }).click();
    await page.getByRole('article', { name: 'Loop paused from LetAgents: Dune and Elm were paused: they kept messaging each other' }).waitFor();

    await roomButton(page, 'loopguard-room').click();
    await banner.getByRole('button', { name: 'Resume them' }).click();
    await banner.waitFor({ state: 'detached' });
    const cursor = await currentCursor(elm);
    const waiting = elm.call('wait_for_messages', { after_message_id: cursor, timeout: 30_000 });
    await dune.call('send_message', { text: '@Elm after the resume' });
    expect((await waiting).messages.map((m: { text: string }) => m.text)).toEqual(['@Elm after the resume']);
    expect(app.problems).toEqual([]);
  });
});

describe('the token meter', () => {
  it('counts what a scripted agent actually received (within 1%)', async () => {
    const { page } = app;
    const maple = await agents.join('meter-room', 'Maple');
    await postInRoom('meter-room', `A long note with accents — ${'déjà vu '.repeat(200)}`);
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    const detail = page.getByRole('listitem').filter({ has: page.getByText('Maple', { exact: true }) }).locator('dd[title*="bytes in total"]');
    const shownBytes = async () => Number(/([\d,]+) bytes in total/.exec((await detail.getAttribute('title')) ?? '')![1].replace(/,/g, ''));
    await detail.waitFor();
    // Joining was charged too: start from the count once it stopped moving (it is written once a second).
    let before = -1;
    await expect
      .poll(async () => {
        const now = await shownBytes();
        const settled = now > 0 && now === before;
        before = now;
        return settled;
      }, { interval: 1500, timeout: 15_000 })
      .toBe(true);

    // What the agent received: the UTF-8 bytes of every result's text, as its MCP client got them through the helper.
    let received = 0;
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = (await maple.client.callTool({ name, arguments: { worker_id: maple.workerId, ...args } })) as { content: Array<{ text: string }> };
      received += result.content.reduce((sum, c) => sum + Buffer.byteLength(c.text, 'utf8'), 0);
    };
    await call('read_messages', { limit: 20 });
    await call('wait_for_messages', { timeout: 1000 });
    await call('get_board');
    await call('search_messages', { query: 'déjà' });
    await call('send_message', { text: 'Read it all.' });
    await call('get_room_memory');
    expect(received).toBeGreaterThan(5_000);
    await expect.poll(async () => Math.abs((await shownBytes()) - before - received) / received, { timeout: 10_000 }).toBeLessThanOrEqual(0.01);
    expect(app.problems).toEqual([]);
  });
});
