// wait_for_messages through real helpers (mcp-tools.md §5.3): the first call without a
// cursor, routing reasons for a worker, skipped (silent) messages, the cursor to resume
// from, clamping, waking on a commit, a caller without identity, and M7.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectUnchanged, FORGED_WORKER_ID, ids, registerWorker, startApp, W7, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';

const ROOM = 'waiting-room';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let bob: Agent;
let adaWorker: string;
let bobWorker: string;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  bob = await connectAgent(serve, { clientName: 'codex' });
  adaWorker = (await registerWorker(ada, ROOM, 'Juniper')).workerId;
  bobWorker = (await registerWorker(bob, ROOM, 'Cedar')).workerId;
});

afterAll(async () => {
  await ada?.client.close();
  await bob?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const adaSays = async (text: string, extra: Record<string, unknown> = {}) => (await ada.call('send_message', { worker_id: adaWorker, text, ...extra })).id as string;
const bobSays = async (text: string, extra: Record<string, unknown> = {}) => (await bob.call('send_message', { worker_id: bobWorker, text, ...extra })).id as string;
const bobWaits = (args: Record<string, unknown> = {}) => bob.call('wait_for_messages', { worker_id: bobWorker, ...args });
const reasons = (result: { messages: Array<{ id: string; activation: { for_current_agent: unknown } }> }) =>
  Object.fromEntries(result.messages.map((m) => [m.id, m.activation.for_current_agent]));
const act = (reason: string, addressed: boolean) => ({ decision: 'activate', reason, addressed });

describe('wait_for_messages', () => {
  it('without a cursor returns at once with the cursor to resume from, even when everything is silent', async () => {
    const first = await bobWaits({ timeout: 1000 });
    const read = await bob.call('read_messages', { room_id: ROOM, limit: 0 });
    // The room holds only the two joins: Juniper's is room noise to Bob, his own is his.
    expect(read.messages.map((m: { text: string }) => m.text)).toEqual(['Juniper joined the room.', 'Cedar joined the room.']);
    expect(first).toEqual({
      room_id: ROOM,
      messages: [],
      last_observed_message_id: read.messages[1].id,
      skipped_message_ids: ids(read),
      skipped_message_count: 2,
    });
    const greeting = await adaSays('@all hello');
    const again = await bobWaits({ timeout: 1000 });
    expect(ids(again)).toEqual([greeting]);
    expect(again.last_observed_message_id).toBe(greeting);
  });

  it('routes each message for the worker, delivers what activates it and lists what it skipped', async () => {
    const cursor = (await bob.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0].id;
    const toOther = await adaSays('@Juniper a note to myself');
    const broadcast = await adaSays('@all standup in five minutes');
    const own = await bobSays('my own update');
    const replyToBob = await adaSays('thanks for that', { reply_to: own });
    const task = await ada.call('add_task', { worker_id: adaWorker, title: 'Fix the flaky test' });
    const event = (await ada.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0];
    expect(event).toMatchObject({ source: 'system', kind: 'event' });
    const plain = await adaSays('a general remark');

    const result = await bobWaits({ after_message_id: cursor, timeout: 1000 });
    expect(Object.keys(result).sort()).toEqual(['last_observed_message_id', 'messages', 'room_id', 'skipped_message_count', 'skipped_message_ids']);
    expect(ids(result)).toEqual([broadcast, replyToBob, plain]);
    expect(reasons(result)).toEqual({
      [broadcast]: act('broadcast', true),
      [replyToBob]: act('reply_target', true),
      [plain]: act('unaddressed', false),
    });
    // Ada proposing a task is room noise to Bob (system_noise): listed as skipped, not delivered.
    expect(result.skipped_message_ids).toEqual([toOther, own, event.id]);
    expect(result.skipped_message_count).toBe(3);
    expect(result.last_observed_message_id).toBe(plain);

    // Bob takes the task; a message naming it wakes him as its owner.
    await bob.call('update_task', { worker_id: bobWorker, task_id: task.task.id, status: 'accepted' });
    await bob.call('claim_task', { worker_id: bobWorker, task_id: task.task.id });
    const afterClaim = (await bob.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0].id;
    const naming = await adaSays(`${task.task.id} looks close`);
    expect(reasons(await bobWaits({ after_message_id: afterClaim, timeout: 1000 }))).toEqual({ [naming]: act('task_owner', false) });
  });

  it('wakes on a commit: a reply in a thread Bob started activates him as a participant', async () => {
    const root = await bobSays('thread about the schema');
    const first = await adaSays('first thought', { thread_parent_id: root });
    const cursor = first;
    const waiting = bobWaits({ after_message_id: cursor, timeout: 20_000 });
    const second = await adaSays('second thought, replying to myself', { thread_parent_id: first });
    const woke = await waiting;
    expect(reasons(woke)).toEqual({ [second]: act('thread_participant', false) });
    expect(woke.last_observed_message_id).toBe(second);
  });

  it('returns no messages but an advanced cursor when everything new was silent', async () => {
    const cursor = (await bob.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0].id;
    const silent = await adaSays('@Juniper only for me');
    const result = await bobWaits({ after_message_id: cursor, timeout: 1000 });
    expect(result).toEqual({ room_id: ROOM, messages: [], last_observed_message_id: silent, skipped_message_ids: [silent], skipped_message_count: 1 });
  });

  it('clamps a cursor past the newest message to the newest', async () => {
    const newest = (await bob.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0].id;
    const result = await bobWaits({ after_message_id: 'msg_99999', timeout: 1000 });
    expect(result).toMatchObject({ messages: [], last_observed_message_id: newest });
  });

  it('waits in an empty room without a cursor and reports a null cursor at the deadline; no identity means no activation', async () => {
    const carol = await connectAgent(serve);
    await carol.call('join_room', { name: 'empty-wait-room' });
    expect(await carol.call('wait_for_messages', { timeout: 1000 })).toEqual({ room_id: 'empty-wait-room', messages: [], last_observed_message_id: null });
    const unrouted = await carol.call('wait_for_messages', { room_id: ROOM, timeout: 1000 });
    expect(unrouted.messages.length).toBeGreaterThan(0);
    for (const message of unrouted.messages) expect(message).not.toHaveProperty('activation');
    await carol.client.close();
  });

  it('keeps the oldest prefix within 2 MiB after a cursor, and resumes after the last kept message', async () => {
    const cursor = (await bob.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0].id;
    const big: string[] = [];
    for (let n = 0; n < 9; n++) big.push(await adaSays(`@Cedar ${'z'.repeat(262_000)}`));
    const first = await bobWaits({ after_message_id: cursor, timeout: 1000 });
    expect(first).toMatchObject({ truncated: true, omitted_message_count: 9 - first.messages.length });
    expect(ids(first)).toEqual(big.slice(0, first.messages.length));
    expect(first.last_observed_message_id).toBe(big[first.messages.length - 1]);
    expect(Buffer.byteLength(JSON.stringify(first.messages))).toBeLessThanOrEqual(2 * 1024 * 1024);
    const rest = await bobWaits({ after_message_id: first.last_observed_message_id, timeout: 1000 });
    expect(ids(rest)).toEqual(big.slice(first.messages.length));
  });

  it('refuses a malformed cursor (M7), bad timeouts and a forged worker_id, changing nothing', async () => {
    await expectUnchanged(serve, async () => {
      for (const cursor of ['msg_01', 'msg_0', '12', 'task_3', 'msg_2147483648']) {
        expectHard(await bobWaits({ after_message_id: cursor }), 'after_message_id must be a message id like msg_12.');
      }
      expectHard(await bobWaits({ timeout: -5 }), /timeout/);
      expectHard(await bobWaits({ timeout: 'soon' }), /timeout/);
      expectHard(await bob.call('wait_for_messages', { worker_id: FORGED_WORKER_ID, timeout: 1000 }), W7);
      expectHard(await bob.call('wait_for_messages', { worker_id: 'nope', timeout: 1000 }), W7);
    });
  });
});
