import { describe, expect, it } from 'vitest';
import { getMessageRow } from '../../../../src/main/domain/messages/read';
import { agent, makeStore, namedRoom, post, snapshot } from './testStore';

const stored = async (t: ReturnType<typeof makeStore>, room: string, n: number) => {
  const row = await getMessageRow(t.q, room, n);
  return { reply: row?.reply_to_number, root: row?.thread_root_number };
};

describe('replies and threads', () => {
  it('a plain reply_to is a top-level quote-reply', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const a = await post(t, room, 'question');
    const b = await post(t, room, 'answer', { replyTo: `msg_${a}` });
    expect(await stored(t, room, b)).toEqual({ reply: a, root: null });
  });

  it('a thread reply to a top-level message is rooted at that message', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const root = await post(t, room, 'root');
    const r1 = await post(t, room, 'in thread', { threadParentId: `msg_${root}` });
    expect(await stored(t, room, r1)).toEqual({ reply: root, root });
  });

  it('a thread reply to a reply keeps the thread root and stores the literal target', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const root = await post(t, room, 'root');
    const r1 = await post(t, room, 'first reply', { threadParentId: `msg_${root}` });
    const r2 = await post(t, room, 'reply to the reply', { threadParentId: `msg_${r1}` });
    expect(await stored(t, room, r2)).toEqual({ reply: r1, root });
  });

  it('a thread started under a quote-reply is rooted at the quote-reply, not at what it quoted', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const original = await post(t, room, 'original');
    const quote = await post(t, room, 'quote', { replyTo: `msg_${original}` });
    const reply = await post(t, room, 'thread under quote', { threadParentId: `msg_${quote}` });
    expect(await stored(t, room, reply)).toEqual({ reply: quote, root: quote });
  });

  it('reply_to and thread_parent_id may both be given when they are the same', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const root = await post(t, room, 'root');
    const r = await post(t, room, 'both', { replyTo: `msg_${root}`, threadParentId: `msg_${root}` });
    expect(await stored(t, room, r)).toEqual({ reply: root, root });
  });

  it('an internal caller may name the thread and the reply target separately', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const root = await post(t, room, 'root');
    const r1 = await post(t, room, 'r1', { threadParentId: `msg_${root}` });
    const answer = await post(t, room, 'answer', { replyTo: `msg_${r1}`, threadRootId: `msg_${root}` });
    expect(await stored(t, room, answer)).toEqual({ reply: r1, root });
    const direct = await post(t, room, 'into the thread', { threadRootId: `msg_${r1}` });
    expect(await stored(t, room, direct)).toEqual({ reply: r1, root });
  });

  it('records the agents taking part in a thread', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const juniper = agent('Juniper');
    const cedar = agent('Cedar');
    const root = await post(t, room, 'root', { author: juniper });
    await post(t, room, 'reply', { author: cedar, threadParentId: `msg_${root}` });
    await post(t, room, 'person reply', { threadParentId: `msg_${root}` });
    const keys = t.db
      .prepare('SELECT agent_key FROM thread_participants WHERE room_id = ? AND root_number = ? ORDER BY agent_key')
      .pluck()
      .all(room, root);
    expect(keys).toEqual(['key_cedar', 'key_juniper']);
  });
});

describe('bad reply targets are refused and change nothing', () => {
  const setup = async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const other = await namedRoom(t, 'other');
    await post(t, room, 'one');
    await post(t, room, 'two');
    const t1 = await post(t, room, 'thread root');
    const r = await post(t, room, 'reply', { threadParentId: `msg_${t1}` });
    const t2 = await post(t, room, 'another root');
    await post(t, other, 'elsewhere 1');
    await post(t, other, 'elsewhere 2');
    await post(t, other, 'elsewhere 3');
    await post(t, other, 'elsewhere 4');
    await post(t, other, 'elsewhere 5');
    await post(t, other, 'elsewhere 6');
    return { t, room, t1, r, t2 };
  };

  const M2 = 'reply_to must reference an existing local message in this room.';

  it.each([
    ['a missing message', { replyTo: 'msg_99' }],
    ['a message of another room', { replyTo: 'msg_6' }],
    ['msg_01', { replyTo: 'msg_01' }],
    ['msg_0', { replyTo: 'msg_0' }],
    ['msg_2147483648', { replyTo: 'msg_2147483648' }],
    ['a task id', { replyTo: 'task_1' }],
    ['an empty string', { replyTo: '' }],
    ['a bare number', { threadParentId: '1' }],
    ['a malformed thread parent', { threadParentId: 'msg_1 ' }],
    ['a missing thread root', { replyTo: 'msg_1', threadRootId: 'msg_99' }],
  ])('%s (M2)', async (_label, extra) => {
    const { t, room } = await setup();
    const before = snapshot(t.db);
    await expect(post(t, room, 'x', extra)).rejects.toThrow(M2);
    expect(snapshot(t.db)).toBe(before);
  });

  it('different reply_to and thread_parent_id (M1)', async () => {
    const { t, room } = await setup();
    const before = snapshot(t.db);
    await expect(post(t, room, 'x', { replyTo: 'msg_1', threadParentId: 'msg_2' })).rejects.toThrow(
      'reply_to and thread_parent_id must match when both are provided.',
    );
    // M1 is decided before the targets are looked up.
    await expect(post(t, room, 'x', { replyTo: 'msg_98', threadParentId: 'msg_99' })).rejects.toThrow(
      'reply_to and thread_parent_id must match when both are provided.',
    );
    expect(snapshot(t.db)).toBe(before);
  });

  it('a reply target outside the requested thread (M3)', async () => {
    const { t, room, t1, r, t2 } = await setup();
    const before = snapshot(t.db);
    const M3 = 'reply_to must belong to the requested local thread.';
    await expect(post(t, room, 'x', { replyTo: `msg_${r}`, threadRootId: `msg_${t2}` })).rejects.toThrow(M3);
    await expect(post(t, room, 'x', { replyTo: 'msg_1', threadRootId: `msg_${t1}` })).rejects.toThrow(M3);
    expect(snapshot(t.db)).toBe(before);
  });
});
