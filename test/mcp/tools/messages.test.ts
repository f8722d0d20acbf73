// send_message, send_thread_message, read_messages and search_messages through a real
// helper (mcp-tools.md §2.4, §5.1, §5.2, §5.4): the message object, quote replies and
// threads (M1, M2), read limits, and search with prefixes and FTS-looking input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectSoft, expectUnchanged, ids, registerWorker, startApp, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';

const MESSAGE_KEYS = ['agent_identity', 'agent_prompt_kind', 'attachments', 'id', 'kind', 'reply_to', 'sender', 'source', 'text', 'timestamp'];
const THREAD_KEYS = ['thread', 'thread_parent_id', 'thread_reply_to_id', 'thread_root_id'];
const M2 = 'reply_to must reference an existing local message in this room.';
const ROOM = 'messages-room';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let worker: string;
let sessionId: string;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  const reg = await registerWorker(ada, ROOM, 'Juniper');
  worker = reg.workerId;
  sessionId = reg.session.session_id;
});

afterAll(async () => {
  await ada?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const send = (args: Record<string, unknown>) => ada.call('send_message', { worker_id: worker, ...args });

describe('send_message', () => {
  it('stores an agent message as the worker and returns the message object with room_id and agent_identity', async () => {
    const sent = await send({ text: 'Hello **room**', sender: 'ignored', conversation_id: 'ignored' });
    expect(Object.keys(sent).sort()).toEqual([...MESSAGE_KEYS, 'room_id'].sort());
    expect(sent).toMatchObject({ id: expect.stringMatching(/^msg_[1-9]\d*$/), kind: 'message', source: 'agent', text: 'Hello **room**', room_id: ROOM, agent_prompt_kind: null, attachments: [], reply_to: null });
    expect(sent.sender).toMatch(/^Juniper \| .+ \| Claude Code$/);
    expect(sent.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(sent.agent_identity).toMatchObject({ actor_label: sent.sender, agent_session_id: sessionId, source: 'local' });
    const read = await ada.call('read_messages', { room_id: ROOM });
    expect(read.messages.at(-1)).toMatchObject({ id: sent.id, agent_identity: { actor_label: sent.sender, agent_key: sent.agent_identity.agent_key, agent_session_id: sessionId } });
  });

  it('quote-replies with reply_to: a top-level message quoting at most 1 000 characters, with no thread fields', async () => {
    const long = await send({ text: 'q'.repeat(1_500) });
    const reply = await send({ text: 'answering that', reply_to: long.id });
    expect(reply.reply_to).toEqual({ id: long.id, sender: long.sender, text: 'q'.repeat(1_000), source: 'agent', timestamp: long.timestamp });
    for (const key of THREAD_KEYS) expect(reply).not.toHaveProperty(key);
  });

  it('replies in a thread with thread_parent_id, rooting replies-to-replies at the root', async () => {
    const root = await send({ text: 'thread root' });
    const first = await ada.call('send_thread_message', { worker_id: worker, text: 'first reply', thread_parent_id: root.id });
    expect(first).toMatchObject({
      thread_parent_id: root.id, thread_root_id: root.id, thread_reply_to_id: root.id, reply_to: { id: root.id, text: 'thread root' },
      thread: { parent_id: root.id, root_message_id: root.id, reply_to_id: root.id, is_thread_reply: true },
    });
    const second = await send({ text: 'reply to the reply', thread_parent_id: first.id, reply_to: first.id });
    expect(second).toMatchObject({ thread_parent_id: root.id, thread_root_id: root.id, thread_reply_to_id: first.id, thread: { is_thread_reply: true, reply_to_id: first.id } });

    const read = await ada.call('read_messages', { limit: 3 });
    expect(ids(read)).toEqual([root.id, first.id, second.id]);
    expect(read.messages[0]).toMatchObject({
      thread_parent_id: null, thread_root_id: root.id, thread_reply_to_id: null,
      thread: { parent_id: null, root_message_id: root.id, reply_to_id: null, is_thread_reply: false, reply_count_in_result: 2, latest_reply_id_in_result: second.id },
    });
  });

  it('refuses conflicting or missing reply targets (M1, M2) hard, storing nothing', async () => {
    const a = await send({ text: 'target a' });
    const b = await send({ text: 'target b' });
    await expectUnchanged(serve, async () => {
      expectHard(await send({ text: 'both', reply_to: a.id, thread_parent_id: b.id }), 'reply_to and thread_parent_id must match when both are provided.');
      for (const target of ['msg_99999', 'msg_01', 'msg_0', 'task_1', 'hello']) {
        expectHard(await send({ text: 'quote', reply_to: target }), M2);
        expectHard(await ada.call('send_thread_message', { worker_id: worker, text: 'thread', thread_parent_id: target }), M2);
      }
    });
    // A message that exists only in another room is not a target here.
    const newestHere = Number(b.id.slice(4));
    await ada.call('join_room', { name: 'other-room' });
    let other = '';
    while (Number(other.slice(4)) <= newestHere) other = (await ada.call('send_message', { room_id: 'other-room', text: 'elsewhere' })).id;
    await expectUnchanged(serve, async () => expectHard(await send({ text: 'cross-room', reply_to: other }), M2));
  });

  it('validates text: blank (M5), 262 145 bytes (M6) hard; exactly 262 144 bytes is stored', async () => {
    await expectUnchanged(serve, async () => {
      expectHard(await send({ text: '  \n ' }), 'Message text is required.');
      expectHard(await send({ text: 'a'.repeat(262_145) }), 'Message text must not exceed 262144 UTF-8 bytes.');
      expectHard(await send({ text: 'é'.repeat(131_073) }), 'Message text must not exceed 262144 UTF-8 bytes.');
      expectHard(await send({ text: 42 }), /text/);
      expectHard(await send({}), /text/);
    });
    const max = await send({ text: 'b'.repeat(262_144) });
    expect(max.text).toHaveLength(262_144);
  });

  it('fails hard without a room (R2) or in an unknown room (R3) on a connection without a worker', async () => {
    const fresh = await connectAgent(serve);
    await expectUnchanged(serve, async () => {
      for (const tool of ['send_message', 'send_thread_message']) {
        expectHard(await fresh.call(tool, { text: 'hi', thread_parent_id: 'msg_1' }), 'No room is currently selected. Join a room first or pass room_id.');
        expectHard(await fresh.call(tool, { text: 'hi', thread_parent_id: 'msg_1', room_id: 'no-such-room' }), 'Room not found.');
      }
    });
    await fresh.client.close();
  });
});

describe('read_messages', () => {
  it('returns the newest `limit` oldest first, the total when partial, and everything with 0', async () => {
    await ada.call('join_room', { name: 'reading-room' });
    const sent = [];
    for (const n of [1, 2, 3, 4]) sent.push((await ada.call('send_message', { room_id: 'reading-room', text: `numbered ${n}` })).id);
    const all = await ada.call('read_messages', { room_id: 'reading-room', limit: 0 });
    expect(Object.keys(all).sort()).toEqual(['messages', 'room_id']);
    expect(ids(all).slice(-4)).toEqual(sent);
    const two = await ada.call('read_messages', { room_id: 'reading-room', limit: 2 });
    expect(Object.keys(two).sort()).toEqual(['messages', 'room_id', 'total_message_count']);
    expect(ids(two)).toEqual(sent.slice(2));
    expect(two.total_message_count).toBe(all.messages.length);
    expect(ids(await ada.call('read_messages', { room_id: 'reading-room' }))).toEqual(ids(all));
  });

  it('keeps the newest suffix within 2 MiB of message JSON, with truncated and omitted_message_count', async () => {
    await ada.call('join_room', { name: 'big-room' });
    let newest = '';
    for (let n = 0; n < 9; n++) newest = (await ada.call('send_message', { room_id: 'big-room', text: `${n}`.repeat(262_144) })).id;
    for (const limit of [0, 100]) {
      const read = await ada.call('read_messages', { room_id: 'big-room', limit });
      expect(read).toMatchObject({ truncated: true, total_message_count: expect.any(Number) });
      expect(read.messages.length).toBeLessThan(9);
      expect(read.omitted_message_count).toBeGreaterThanOrEqual(9 - read.messages.length);
      expect(read.messages.at(-1).id).toBe(newest);
      expect(Buffer.byteLength(JSON.stringify(read.messages))).toBeLessThanOrEqual(2 * 1024 * 1024);
    }
  });

  it('fails softly without a room (R1) or in an unknown room (R3); bad limits are schema errors', async () => {
    const fresh = await connectAgent(serve);
    await expectUnchanged(serve, async () => {
      expectSoft(await fresh.call('read_messages'), 'No room_id provided and not currently in a room.', { hint: 'Pass room_id, or call join_room first.' });
      expectSoft(await fresh.call('read_messages', { room_id: 'no-such-room' }), 'Room not found.');
      for (const limit of [-1, 1.5, '5', null]) expectHard(await ada.call('read_messages', { limit }), /limit/);
    });
    await fresh.client.close();
  });
});

describe('search_messages', () => {
  it('finds messages newest first with every term matching, prefixes, snippets and has_more', async () => {
    await ada.call('join_room', { name: 'search-room' });
    const post = async (text: string) => (await ada.call('send_message', { room_id: 'search-room', text })).id;
    const older = await post('The deployment pipeline failed on staging');
    const newer = await post('Deployment fixed; staging is green again');
    await post('unrelated chatter about lunch');
    const result = await ada.call('search_messages', { room_id: 'search-room', query: 'deploy* staging' });
    expect(Object.keys(result).sort()).toEqual(['has_more', 'matches', 'query', 'room_id', 'success']);
    expect(result).toMatchObject({ success: true, room_id: 'search-room', query: 'deploy* staging', has_more: false });
    expect(result.matches.map((m: { id: string }) => m.id)).toEqual([newer, older]);
    expect(Object.keys(result.matches[0]).sort()).toEqual(['id', 'kind', 'reply_to_id', 'sender', 'snippet', 'source', 'thread_root_id', 'timestamp']);
    expect(result.matches[0]).toMatchObject({ kind: 'message', source: 'agent', thread_root_id: null, reply_to_id: null });
    expect(result.matches[0].snippet).toMatch(/\*\*Deployment\*\*/);
    const one = await ada.call('search_messages', { room_id: 'search-room', query: 'staging', limit: 1 });
    expect(one).toMatchObject({ has_more: true, matches: [{ id: newer }] });
    expect((await ada.call('search_messages', { room_id: 'search-room', query: 'deployment lunch' })).matches).toEqual([]);
  });

  it('treats FTS5 syntax as plain terms, never as operators', async () => {
    for (const query of ['"staging" OR lunch', 'NEAR(staging lunch)', 'staging AND NOT green', 'sender:Juniper', 'a"b', '^staging', 'staging)']) {
      const result = await ada.call('search_messages', { room_id: 'search-room', query });
      expect(result.success, `${query}: ${JSON.stringify(result)}`).toBe(true);
    }
    // "OR" is a literal term that must also match, so nothing matches.
    expect((await ada.call('search_messages', { room_id: 'search-room', query: 'staging OR lunch' })).matches).toEqual([]);
  });

  it('refuses empty and oversized queries (M8, M9, schema) hard', async () => {
    await expectUnchanged(serve, async () => {
      expectHard(await ada.call('search_messages', { room_id: 'search-room', query: '*** ...' }), 'query must contain at least one search term.');
      expectHard(await ada.call('search_messages', { room_id: 'search-room', query: Array.from({ length: 17 }, (_, i) => `t${i}`).join(' ') }), 'query must not have more than 16 terms.');
      expectHard(await ada.call('search_messages', { room_id: 'search-room', query: '' }), /query/);
      expectHard(await ada.call('search_messages', { room_id: 'search-room', query: 'x'.repeat(501) }), /query/);
      expectHard(await ada.call('search_messages', { room_id: 'search-room', query: 'staging', limit: 101 }), /limit/);
      expectSoft(await ada.call('search_messages', { room_id: 'no-such-room', query: 'staging' }), 'Room not found.');
    });
  });
});
