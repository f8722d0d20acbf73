// Delivery you can see (issue 14) through the app API, with agents as real MCP clients of the
// app's hub: receipts per message and agent, get_message_status, reachability, the "Needs
// you" items for unanswered messages and untouched tasks (with remind and hand off), the
// loop guard, the per-room budget, and the token meter against what an agent received.
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/shared/tokens';
import { eventsOf, setUpApi, type ApiHarness, type TestAgent } from './harness';

const ROOM = 'lab';

/** Waits until the receipts of `number` say exactly this. */
async function receiptsSettle(h: ApiHarness, number: number, seen: string[], waiting: string[]): Promise<void> {
  let last = '';
  const deadline = Date.now() + 5_000;
  for (;;) {
    const [r] = (await h.call('delivery.receipts', { roomId: ROOM, numbers: [number] })).receipts;
    const got = { seen: r.seen.map((s) => s.name).sort(), waiting: r.waiting.map((w) => w.name).sort() };
    last = JSON.stringify(got);
    if (last === JSON.stringify({ seen: [...seen].sort(), waiting: [...waiting].sort() })) return;
    if (Date.now() > deadline) throw new Error(`receipts of msg_${number} stayed ${last}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const msgNumber = (id: unknown) => Number(String(id).slice('msg_'.length));
const cursorOf = async (agent: TestAgent) => (await agent.tool<{ last_observed_message_id: string }>('wait_for_messages', { timeout: 1000 })).last_observed_message_id;

async function needsYouItem(h: ApiHarness, reason: string, from?: string) {
  let found;
  const deadline = Date.now() + 8_000;
  while (!found) {
    found = (await h.call('needsYou.list', {})).items.find((i) => i.reason === reason && (from === undefined || i.from === from));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no "${reason}" item in Needs you`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return found;
}

describe('receipts', () => {
  it("shows who got a person's message and who it still waits for, and get_message_status says the same", async () => {
    const h = await setUpApi();
    const atlas = await h.agent(ROOM, 'Atlas');
    const birch = await h.agent(ROOM, 'Birch');
    const cedar = await h.agent(ROOM, 'Cedar');
    const atlasCursor = await cursorOf(atlas);
    // Every agent gets this @all at once (issue 34: by default a person's @all is answered in turn).
    await h.call('rooms.setReplyToAll', { roomId: ROOM, mode: 'all_at_once' });
    const sent = await h.call('messages.send', { roomId: ROOM, text: '@all who can look at the flaky login test?' });
    await receiptsSettle(h, sent.number, [], ['Atlas', 'Birch', 'Cedar']);

    // Atlas's wait returns it; Birch reads the room; Cedar does nothing.
    const woke = await atlas.tool<{ messages: Array<{ id: string }> }>('wait_for_messages', { after_message_id: atlasCursor, timeout: 5000 });
    expect(woke.messages.map((m) => msgNumber(m.id))).toContain(sent.number);
    await birch.tool('read_messages', { limit: 5 });
    await receiptsSettle(h, sent.number, ['Atlas', 'Birch'], ['Cedar']);
    const [receipts] = (await h.call('delivery.receipts', { roomId: ROOM, numbers: [sent.number] })).receipts;
    expect(receipts.seen.every((s) => s.exact && !Number.isNaN(Date.parse(s.at)))).toBe(true);
    expect(receipts.waiting).toEqual([{ sessionId: cedar.sessionId, name: 'Cedar', reachability: 'working' }]);
    // Stored shortly after (one write for the batch), and the UI is told.
    await h.waitFor(() => eventsOf(h.events, 'message.receipts').filter((e) => e.first <= sent.number && sent.number <= e.last).length === 2, 'the receipts events');

    const status = await cedar.tool<{ recipients: unknown[] }>('get_message_status', { message_id: `msg_${sent.number}` });
    expect(status.recipients).toEqual([
      { agent: 'Atlas', delivered_at: receipts.seen.find((s) => s.name === 'Atlas')!.at, reachability: 'working' },
      { agent: 'Birch', delivered_at: expect.any(String), reachability: 'working' },
      { agent: 'Cedar', delivered_at: null, reachability: 'working' },
    ]);
    expect((await atlas.tool('get_message_status', { message_id: `msg_${sent.number}`, agent: '@cedar' })).recipients).toEqual([
      { agent: 'Cedar', delivered_at: null, reachability: 'working' },
    ]);
    expect(await atlas.tool('get_message_status', { message_id: 'msg_999' })).toEqual({ success: false, error: 'Message not found.' });
    expect(await atlas.tool('get_message_status', { message_id: `msg_${sent.number}`, agent: 'Nobody' })).toEqual({ success: false, error: 'No agent named Nobody in this room.' });
  });

  it('gives no receipt for a message that skipped an agent: another agent named, or its own', async () => {
    const h = await setUpApi();
    const atlas = await h.agent(ROOM, 'Atlas');
    const birch = await h.agent(ROOM, 'Birch');
    const cursor = await cursorOf(birch);
    const toAtlas = (await birch.tool<{ id: string }>('send_message', { text: '@Atlas can you take task_1?' })).id;
    const waiting = birch.tool<{ messages: unknown[] }>('wait_for_messages', { after_message_id: cursor, timeout: 1000 });
    await receiptsSettle(h, msgNumber(toAtlas), [], ['Atlas']);
    expect((await waiting).messages).toEqual([]);
    await atlas.tool('read_messages', { limit: 1 });
    await receiptsSettle(h, msgNumber(toAtlas), ['Atlas'], []);
  });
});

describe('reachability', () => {
  it('is listening inside wait_for_messages, working after, and the roster sorts by it', async () => {
    const h = await setUpApi();
    const atlas = await h.agent(ROOM, 'Atlas');
    const birch = await h.agent(ROOM, 'Birch');
    const cursor = await cursorOf(birch);
    const waiting = birch.tool('wait_for_messages', { after_message_id: cursor, timeout: 5000 });
    await expect.poll(async () => (await h.call('workers.list', { roomId: ROOM })).map((a) => [a.name, a.reachability])).toEqual([['Birch', 'listening'], ['Atlas', 'working']]);
    expect(eventsOf(h.events, 'worker.reachability').filter((e) => e.sessionId === birch.sessionId).map((e) => e.reachability).slice(-2)).toEqual(['working', 'listening']);
    await atlas.tool('send_message', { text: '@Birch ping' });
    await waiting;
    expect((await h.call('workers.list', { roomId: ROOM })).find((a) => a.name === 'Birch')?.reachability).toBe('working');
    await h.call('workers.disconnect', { sessionId: birch.sessionId });
    expect((await h.call('workers.list', { roomId: ROOM })).map((a) => [a.name, a.reachability])).toEqual([['Atlas', 'working'], ['Birch', 'offline']]);
  });
});

describe('unanswered messages and untouched tasks', () => {
  it('raise "Needs you" items after the limit; a reminder wakes the agent once it waits, which resolves the item', async () => {
    const h = await setUpApi();
    await h.call('settings.set', { delivery: { unansweredAfterSeconds: 1 } });
    expect((await h.call('settings.get', {})).delivery).toEqual({ unansweredAfterSeconds: 1, loopGuardMessages: 30, loopGuardMinutes: 10 });
    const atlas = await h.agent(ROOM, 'Atlas');
    const cedar = await h.agent(ROOM, 'Cedar');
    const cursor = await cursorOf(cedar);
    const sent = await h.call('messages.send', { roomId: ROOM, text: '@Cedar please rerun the migration' });

    const item = await needsYouItem(h, 'unanswered');
    expect(item).toMatchObject({
      ref: { kind: 'alert', roomId: ROOM },
      title: "Cedar hasn't picked up your message",
      from: 'Cedar',
      threadRootNumber: sent.number,
      alert: { actions: ['remind', 'handoff'], prompt: `Read the LetAgents room lab and reply to msg_${sent.number}.`, agent: { name: 'Cedar' }, remindedAt: null },
    });
    expect(item.alert!.handoffTo.map((a) => a.name)).toEqual(['Atlas']);

    expect(await h.call('needsYou.act', { item: item.ref, action: 'remind' })).toEqual({ removed: false });
    const woke = await cedar.tool<{ messages: Array<{ text: string }> }>('wait_for_messages', { after_message_id: cursor, timeout: 5000 });
    expect(woke.messages.map((m) => m.text)).toEqual(['@Cedar please rerun the migration', `@Cedar a reminder: please read msg_${sent.number} and reply.`]);
    await h.waitFor(() => eventsOf(h.events, 'needsYou.changed').length > 0, 'the queue to change');
    await expect.poll(async () => (await h.call('needsYou.list', {})).items.filter((i) => i.reason === 'unanswered')).toEqual([]);
    void atlas;
  });

  it('keeps one open item per agent; once the person dismisses it, the next message not picked up raises a new one', async () => {
    const h = await setUpApi();
    await h.call('settings.set', { delivery: { unansweredAfterSeconds: 1 } });
    await h.agent(ROOM, 'Cedar');
    await h.call('messages.send', { roomId: ROOM, text: '@Cedar first' });
    await h.call('messages.send', { roomId: ROOM, text: '@Cedar second' });
    const first = await needsYouItem(h, 'unanswered');
    // Bounded, to show what does not come: past the 1 s limit again, the second message raises no item of its own.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await h.call('needsYou.list', {})).items.filter((i) => i.reason === 'unanswered')).toHaveLength(1);
    await h.call('needsYou.dismiss', { item: first.ref });
    await h.call('messages.send', { roomId: ROOM, text: '@Cedar third' });
    const next = await needsYouItem(h, 'unanswered');
    expect(next.ref.number).not.toBe(first.ref.number);
    expect(next.body).toContain('@Cedar third');
  });

  it('hands the work to another agent: a task handed to a silent agent goes to the one chosen', async () => {
    const h = await setUpApi();
    await h.call('settings.set', { delivery: { unansweredAfterSeconds: 1 } });
    const atlas = await h.agent(ROOM, 'Atlas');
    const cedar = await h.agent(ROOM, 'Cedar');
    await h.call('tasks.create', { roomId: ROOM, title: 'Rotate the keys' });
    await h.call('tasks.handoff', { roomId: ROOM, number: 1, toAgentKey: cedar.agentKey });
    const item = await needsYouItem(h, 'idle_task');
    expect(item).toMatchObject({ title: "Cedar hasn't started on task_1", alert: { actions: ['remind', 'handoff'] } });
    expect(item.alert!.prompt).toContain('task_1 (Rotate the keys) is yours');
    expect(await h.call('needsYou.act', { item: item.ref, action: 'handoff', toSessionId: atlas.sessionId })).toEqual({ removed: true });
    expect((await h.call('tasks.get', { roomId: ROOM, number: 1 })).assignee?.name).toBe('Atlas');
    expect((await h.call('needsYou.list', {})).items.filter((i) => i.reason === 'idle_task')).toEqual([]);
    expect(await h.fail('needsYou.act', { item: item.ref, action: 'remind' })).toEqual({ code: 'not_found', message: 'Item not found.' });
  });

  it('resolves an untouched-task item once the agent calls any tool', async () => {
    const h = await setUpApi();
    await h.call('settings.set', { delivery: { unansweredAfterSeconds: 1 } });
    const cedar = await h.agent(ROOM, 'Cedar');
    await h.call('tasks.create', { roomId: ROOM, title: 'Rotate the keys' });
    await h.call('tasks.handoff', { roomId: ROOM, number: 1, toAgentKey: cedar.agentKey });
    await needsYouItem(h, 'idle_task');
    await cedar.tool('get_board');
    await expect.poll(async () => (await h.call('needsYou.list', {})).items.map((i) => i.reason)).toEqual([]);
  });
});

describe('the loop guard', () => {
  it('pauses two agents past the limit: their mentions stop waking each other, the poster is told, and Resume lifts it', async () => {
    const h = await setUpApi();
    await h.call('settings.set', { delivery: { loopGuardMessages: 3 } });
    const atlas = await h.agent(ROOM, 'Atlas');
    const birch = await h.agent(ROOM, 'Birch');
    let cursor = await cursorOf(birch);
    const posts: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 4; i++) posts.push(await (i % 2 ? birch : atlas).tool('send_message', { text: `${i % 2 ? '@Atlas' : '@Birch'} round ${i}` }));
    expect(posts.slice(0, 3).map((p) => p.loop_paused)).toEqual([undefined, undefined, undefined]);
    expect(posts[3]).toMatchObject({ loop_paused: true, notice: expect.stringContaining('wakes none of Atlas') });

    // Birch's wait gets rounds 0 and 2 (before the pause) but not Atlas's next mention.
    const first = await birch.tool<{ messages: Array<{ text: string }>; last_observed_message_id: string }>('wait_for_messages', { after_message_id: cursor, timeout: 2000 });
    expect(first.messages.map((m) => m.text)).toEqual(['@Birch round 0', '@Birch round 2']);
    cursor = first.last_observed_message_id;
    const later = await atlas.tool('send_message', { text: '@Birch round 4' });
    expect(later.loop_paused).toBe(true);
    const quiet = await birch.tool<{ messages: unknown[]; last_observed_message_id: string }>('wait_for_messages', { after_message_id: cursor, timeout: 1000 });
    expect(quiet.messages).toEqual([]);

    const item = await needsYouItem(h, 'loop');
    expect(item).toMatchObject({ title: 'Atlas and Birch were paused: they kept messaging each other', alert: { actions: ['resume', 'stop'] } });
    expect((await h.call('delivery.room', { roomId: ROOM })).loop).toMatchObject({ agents: ['Atlas', 'Birch'] });
    const timeline = await h.call('messages.timeline', { roomId: ROOM });
    expect(timeline.messages.map((m) => m.text)).toContain('The loop guard paused Atlas and Birch: 4 messages within 10 minutes with no person involved. Their messages to one another wake none of them until a person resumes them.');

    await h.call('needsYou.act', { item: item.ref, action: 'resume' });
    expect((await h.call('delivery.room', { roomId: ROOM })).loop).toBeNull();
    const waiting = birch.tool<{ messages: Array<{ text: string }> }>('wait_for_messages', { after_message_id: quiet.last_observed_message_id, timeout: 5000 });
    await atlas.tool('send_message', { text: '@Birch after the resume' });
    expect((await waiting).messages.map((m) => m.text)).toContain('@Birch after the resume');
  });
});

describe('the token meter and the room budget', () => {
  it("counts exactly the bytes of the results an agent received, and past the room's budget reads get a soft 'budget reached'", async () => {
    const h = await setUpApi();
    const atlas = await h.agent(ROOM, 'Atlas');
    const received: number[] = [];
    const measured = async (tool: string, args: Record<string, unknown> = {}) => {
      const result = await atlas.client.callTool({ name: tool, arguments: { worker_id: atlas.workerId, ...args } });
      const text = (result.content as Array<{ type: string; text: string }>).map((c) => c.text).join('');
      received.push(Buffer.byteLength(text, 'utf8'));
      return JSON.parse(text) as Record<string, unknown>;
    };
    const before = (await h.call('workers.list', { roomId: ROOM }))[0].meter.totalBytes;
    for (let i = 0; i < 5; i++) await h.call('messages.send', { roomId: ROOM, text: `Plenty to read — ${'ü'.repeat(400)} ${i}` });
    await measured('read_messages', { limit: 5 });
    await measured('get_board');
    await measured('send_message', { text: 'done reading' });
    const counted = (await h.call('workers.list', { roomId: ROOM }))[0].meter.totalBytes - before;
    expect(counted).toBe(received.reduce((a, b) => a + b, 0));

    const room = await h.call('delivery.setRoomBudget', { roomId: ROOM, dailyTokens: 1_000 });
    expect(room).toMatchObject({ budgetTokens: 1_000, budgetReached: estimateTokens(room.meter.todayBytes) >= 1_000 });
    while (!(await h.call('delivery.room', { roomId: ROOM })).budgetReached) await measured('read_messages', { limit: 5 });
    expect(await measured('read_messages', { limit: 5 })).toMatchObject({ success: false, error: expect.stringMatching(/^This room's daily token budget is reached: about \d+ of 1000 tokens today\./) });
    expect(await measured('wait_for_messages', { timeout: 1000 })).toMatchObject({ success: false });
    expect((await measured('send_message', { text: 'out of budget' })).id).toMatch(/^msg_/);
    const item = await needsYouItem(h, 'room_budget');
    expect(item.title).toBe('lab reached its daily token budget');
    await h.call('delivery.setRoomBudget', { roomId: ROOM, dailyTokens: null });
    expect((await measured('read_messages', { limit: 1 })).messages).toHaveLength(1);
  });
});

describe('after a restart', () => {
  it('re-derives a pending unanswered-message item from the store, and keeps a loop paused', async () => {
    const first = await setUpApi();
    await first.call('settings.set', { delivery: { unansweredAfterSeconds: 2, loopGuardMessages: 3 } });
    const atlas = await first.agent(ROOM, 'Atlas');
    const birch = await first.agent(ROOM, 'Birch');
    const cedar = await first.agent(ROOM, 'Cedar');
    await first.call('messages.send', { roomId: ROOM, text: '@Cedar can you rotate the keys?' });
    const numbers: number[] = [];
    for (let i = 0; i < 4; i++) numbers.push(msgNumber((await (i % 2 ? birch : atlas).tool('send_message', { text: `${i % 2 ? '@Atlas' : '@Birch'} round ${i}` })).id));
    await first.app.close();
    void cedar;

    const second = await setUpApi({ dataDir: first.dataDir });
    // The mention's timer was pending when the app stopped: the restarted app raises the item.
    const item = await needsYouItem(second, 'unanswered', 'Cedar');
    expect(item.title).toBe("Cedar hasn't picked up your message");
    expect((await second.call('delivery.room', { roomId: ROOM })).loop).toMatchObject({ agents: ['Atlas', 'Birch'], fromNumber: numbers[3] });
    // Routing still knows: the message past the limit routes to no one it was paused with.
    const receipts = (await second.call('delivery.receipts', { roomId: ROOM, numbers: numbers.slice(2) })).receipts;
    expect(receipts.map((r) => r.waiting.map((w) => w.name))).toEqual([['Birch'], []]);
  });
});
