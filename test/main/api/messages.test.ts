import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../../src/main/domain/messages/send';
import { eventsOf, setUpApi, type ApiHarness } from './harness';

const person = { kind: 'person' as const, label: 'Ada' };

/** `count` top-level messages in room "lab" (numbers 1…count). */
async function roomWith(h: ApiHarness, count: number): Promise<void> {
  await h.room('lab');
  await h.app.core.store.write(async (tx) => {
    for (let i = 1; i <= count; i++) await sendMessage(tx, { roomId: 'lab', author: person, text: `m${i}` });
  });
}

const numbers = (page: { messages: Array<{ number: number }> }) => page.messages.map((m) => m.number);

describe('messages.timeline', () => {
  it('gives the newest page oldest first, then pages back and forward', async () => {
    const h = await setUpApi();
    await roomWith(h, 10);
    const newest = await h.call('messages.timeline', { roomId: 'lab', limit: 4 });
    expect(numbers(newest)).toEqual([7, 8, 9, 10]);
    expect(newest).toMatchObject({ hasMoreBefore: true, hasMoreAfter: false });

    const older = await h.call('messages.timeline', { roomId: 'lab', before: 7, limit: 4 });
    expect(numbers(older)).toEqual([3, 4, 5, 6]);
    expect(older).toMatchObject({ hasMoreBefore: true, hasMoreAfter: true });

    const oldest = await h.call('messages.timeline', { roomId: 'lab', before: 3, limit: 4 });
    expect(numbers(oldest)).toEqual([1, 2]);
    expect(oldest).toMatchObject({ hasMoreBefore: false, hasMoreAfter: true });

    const after = await h.call('messages.timeline', { roomId: 'lab', after: 8, limit: 4 });
    expect(numbers(after)).toEqual([9, 10]);
    expect(after).toMatchObject({ hasMoreBefore: true, hasMoreAfter: false });
    expect(await h.call('messages.timeline', { roomId: 'lab', after: 0, limit: 2 })).toMatchObject({ hasMoreBefore: false, hasMoreAfter: true });
  });

  it('centres a page around a message, and around its thread root for a reply', async () => {
    const h = await setUpApi();
    await roomWith(h, 20);
    const around = await h.call('messages.timeline', { roomId: 'lab', around: 10, limit: 5 });
    expect(numbers(around)).toEqual([8, 9, 10, 11, 12]);
    expect(around).toMatchObject({ hasMoreBefore: true, hasMoreAfter: true });
    const reply = await h.call('messages.send', { roomId: 'lab', text: 'in thread', threadRootNumber: 5 });
    expect(numbers(await h.call('messages.timeline', { roomId: 'lab', around: reply.number, limit: 3 }))).toEqual([4, 5, 6]);
    expect(numbers(await h.call('messages.timeline', { roomId: 'lab', around: 1, limit: 1 }))).toEqual([1]);
  });

  it('shows top-level messages with reply counts and quotes, leaving replies and prompt-only rows out', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper', 'claude-code');
    await juniper.tool('send_message', { text: 'root' }); // msg_2 (msg_1 is the join event)
    const r1 = await h.call('messages.send', { roomId: 'lab', text: 'reply one', threadRootNumber: 2 });
    await h.call('messages.send', { roomId: 'lab', text: 'reply two', threadRootNumber: 2 });
    await h.call('messages.send', { roomId: 'lab', text: 'quoting', replyToNumber: 2 });
    await h.app.core.store.write((tx) => sendMessage(tx, { roomId: 'lab', author: person, text: '', agentPromptKind: 'auto' }));

    const page = await h.call('messages.timeline', { roomId: 'lab' });
    expect(numbers(page)).toEqual([1, 2, 5]);
    const [join, root, quote] = page.messages;
    expect(join).toMatchObject({ id: 'msg_1', kind: 'event', source: 'system', text: 'Juniper joined the room.', sender: { name: 'LetAgents', agentKey: null } });
    expect(root).toMatchObject({
      id: 'msg_2',
      source: 'agent',
      sender: { name: 'Juniper', ide: 'Claude Code', agentKey: juniper.agentKey },
      replyCount: 2,
      replyTo: null,
      threadRootNumber: null,
    });
    expect(root.sender.owner).toMatch(/' agent$|'s agent$/);
    expect(root.lastReplyAt).not.toBeNull();
    expect(r1.threadRootNumber).toBe(2);
    expect(quote).toMatchObject({ replyTo: { number: 2, senderName: 'Juniper', excerpt: 'root' }, threadRootNumber: null, source: 'human' });
  });

  it('marks messages that mention the person, or everyone', async () => {
    const h = await setUpApi();
    const me = (await h.app.auth.ownerIdentity()).ownerLabel.replace(/[^A-Za-z0-9_.:/-]/g, '');
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('send_message', { text: `@${me} can you look?` });
    await juniper.tool('send_message', { text: '@all standup' });
    await juniper.tool('send_message', { text: '@agents only' });
    await juniper.tool('send_message', { text: `\`@${me}\` in code is not a mention` });
    const page = await h.call('messages.timeline', { roomId: 'lab' });
    expect(page.messages.map((m) => m.mentionsYou)).toEqual([false, true, true, false, false]);
  });

  it('refuses two cursors, a bad limit and an unknown room, changing nothing', async () => {
    const h = await setUpApi();
    await roomWith(h, 3);
    const before = h.snapshot();
    expect(await h.fail('messages.timeline', { roomId: 'lab', before: 3, after: 1 })).toEqual({
      code: 'invalid_input',
      message: 'Pass at most one of before, after and around.',
    });
    expect(await h.fail('messages.timeline', { roomId: 'lab', limit: 0 })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('messages.timeline', { roomId: 'lab', limit: 501 })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('messages.timeline', { roomId: 'nowhere' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('messages.thread', () => {
  it('gives the root and its replies, from the root or any reply', async () => {
    const h = await setUpApi();
    await roomWith(h, 2);
    await h.call('messages.send', { roomId: 'lab', text: 'a', threadRootNumber: 1 });
    const b = await h.call('messages.send', { roomId: 'lab', text: 'b', threadRootNumber: 1 });
    const thread = await h.call('messages.thread', { roomId: 'lab', rootNumber: 1 });
    expect(thread.root).toMatchObject({ number: 1, replyCount: 2 });
    expect(thread.replies.map((r) => r.text)).toEqual(['a', 'b']);
    expect((await h.call('messages.thread', { roomId: 'lab', rootNumber: b.number })).root.number).toBe(1);
  });

  it('refuses an unknown message or room', async () => {
    const h = await setUpApi();
    await roomWith(h, 1);
    expect(await h.fail('messages.thread', { roomId: 'lab', rootNumber: 9 })).toEqual({ code: 'not_found', message: 'Message not found.' });
    expect(await h.fail('messages.thread', { roomId: 'nowhere', rootNumber: 1 })).toEqual({ code: 'R3', message: 'Room not found.' });
  });
});

describe('messages.send', () => {
  it('posts as the person and pushes the message to the UI', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const sent = await h.call('messages.send', { roomId: 'lab', text: 'Hello **agents**' });
    const me = (await h.app.auth.ownerIdentity()).ownerLabel;
    expect(sent).toMatchObject({ id: 'msg_1', source: 'human', kind: 'message', sender: { label: me, name: me, agentKey: null }, mentionsYou: false });
    expect(eventsOf(h.events, 'message.created')).toEqual([{ type: 'message.created', place: 'local', roomId: 'lab', message: sent }]);
  });

  it('replies in a thread, quoting a reply of that thread', async () => {
    const h = await setUpApi();
    await roomWith(h, 1);
    const first = await h.call('messages.send', { roomId: 'lab', text: 'first reply', threadRootNumber: 1 });
    const second = await h.call('messages.send', { roomId: 'lab', text: 'answering it', threadRootNumber: 1, replyToNumber: first.number });
    expect(second).toMatchObject({ threadRootNumber: 1, replyTo: { number: first.number, excerpt: 'first reply' } });
  });

  it('refuses blank or missing text, a missing target, a target of another thread, and an unknown room, changing nothing', async () => {
    const h = await setUpApi();
    await roomWith(h, 2);
    const before = h.snapshot();
    expect(await h.fail('messages.send', { roomId: 'lab', text: '  \n ' })).toEqual({ code: 'invalid_input', message: 'text: Message text is required.' });
    expect(await h.fail('messages.send', { roomId: 'lab', text: 'x'.repeat(262_145) })).toEqual({
      code: 'invalid_input',
      message: 'This message is 257 KB; the limit is 256 KB.',
    });
    // In KB as people count them (rounded up), whatever the characters.
    expect((await h.fail('messages.send', { roomId: 'lab', text: 'é'.repeat(154_112) })).message).toBe('This message is 301 KB; the limit is 256 KB.');
    expect(await h.fail('messages.send', { roomId: 'lab' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('messages.send', { roomId: 'lab', text: 'hi', replyToNumber: 99 })).toEqual({
      code: 'M2',
      message: 'reply_to must reference an existing local message in this room.',
    });
    expect(await h.fail('messages.send', { roomId: 'lab', text: 'hi', threadRootNumber: 1, replyToNumber: 2 })).toEqual({
      code: 'M3',
      message: 'reply_to must belong to the requested local thread.',
    });
    expect(await h.fail('messages.send', { roomId: 'nowhere', text: 'hi' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('messages.search', () => {
  it('finds messages newest first with highlighted snippets, Markdown bold left alone', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.call('messages.send', { roomId: 'lab', text: 'The **login** page breaks on Safari' });
    await h.call('messages.send', { roomId: 'lab', text: 'Unrelated' });
    const reply = await h.call('messages.send', { roomId: 'lab', text: 'Fixed the Login bug', threadRootNumber: 1 });
    const result = await h.call('messages.search', { roomId: 'lab', query: 'login' });
    expect(result.hasMore).toBe(false);
    expect(result.hits.map((hit) => [hit.number, hit.threadRootNumber])).toEqual([[reply.number, 1], [1, null]]);
    expect(result.hits[1].snippet).toEqual([
      { text: 'The **', hit: false },
      { text: 'login', hit: true },
      { text: '** page breaks on Safari', hit: false },
    ]);
    expect(result.hits[0].snippet.filter((p) => p.hit).map((p) => p.text)).toEqual(['Login']);
  });

  it('matches prefixes and says when there is more', async () => {
    const h = await setUpApi();
    await roomWith(h, 0);
    for (const text of ['deploy one', 'deployment two', 'deployed three']) await h.call('messages.send', { roomId: 'lab', text });
    const result = await h.call('messages.search', { roomId: 'lab', query: 'deploy*', limit: 2 });
    expect(result.hits.map((hit) => hit.number)).toEqual([3, 2]);
    expect(result.hasMore).toBe(true);
    expect(result.hits[0].snippet).toContainEqual({ text: 'deployed', hit: true });
  });

  it('refuses a blank query, one with no searchable term or too many terms, and an unknown room', async () => {
    const h = await setUpApi();
    await roomWith(h, 1);
    expect(await h.fail('messages.search', { roomId: 'lab', query: '   ' })).toEqual({
      code: 'invalid_input',
      message: 'query: query must contain at least one search term.',
    });
    expect(await h.fail('messages.search', { roomId: 'lab', query: '*** ---' })).toEqual({ code: 'M8', message: 'query must contain at least one search term.' });
    expect(await h.fail('messages.search', { roomId: 'lab', query: Array.from({ length: 17 }, (_, i) => `t${i}`).join(' ') })).toEqual({
      code: 'M9',
      message: 'query must not have more than 16 terms.',
    });
    expect(await h.fail('messages.search', { roomId: 'nowhere', query: 'x' })).toEqual({ code: 'R3', message: 'Room not found.' });
  });
});

describe('messages.searchAll', () => {
  it('searches every room, hits grouped by room in the sidebar\'s order, rooms without hits left out', async () => {
    const h = await setUpApi();
    for (const room of ['lab', 'ops', 'quiet']) await h.room(room);
    await h.call('messages.send', { roomId: 'lab', text: 'The flamingo build is red' });
    await h.call('messages.send', { roomId: 'quiet', text: 'Nothing to see' });
    await h.call('messages.send', { roomId: 'ops', text: 'Flamingo deploy at noon' });
    await h.call('messages.send', { roomId: 'ops', text: 'flamingo rollback plan' });
    const result = await h.call('messages.searchAll', { query: 'flamingo' });
    // The sidebar's order (pinned, then latest activity; rooms written in the same millisecond by id).
    const sidebar = (await h.call('rooms.list', {})).map((r) => r.id).filter((id) => id !== 'quiet');
    expect(result.groups.map((g) => g.roomId)).toEqual(sidebar);
    const byRoom = new Map(result.groups.map((g) => [g.roomId, [g.hits.map((hit) => hit.number), g.hasMore]]));
    expect(byRoom).toEqual(new Map([['ops', [[2, 1], false]], ['lab', [[1], false]]]));
    const ops = result.groups.find((g) => g.roomId === 'ops')!;
    expect(ops.hits[1].snippet).toContainEqual({ text: 'Flamingo', hit: true });
    const capped = await h.call('messages.searchAll', { query: 'flamingo', perRoom: 1 });
    expect(capped.groups.find((g) => g.roomId === 'ops')).toMatchObject({ hits: [{ number: 2 }], hasMore: true });
    expect(await h.fail('messages.searchAll', { query: '  ' })).toMatchObject({ code: 'invalid_input' });
  });
});

describe('a stored message larger than anyone can send (a row written by another program)', () => {
  it('reaches the window as its first 64 KiB, marked cut, in the timeline and the thread (issue 24 item 10)', async () => {
    const h = await setUpApi();
    await roomWith(h, 2);
    const huge = `start ${'lorem ipsum '.repeat(350_000)}`; // about 4 MiB
    await h.app.core.store.write((tx) => tx.run('UPDATE messages SET text = ? WHERE room_id = ? AND number = ?', huge, 'lab', 1));
    const page = await h.call('messages.timeline', { roomId: 'lab' });
    expect(JSON.stringify(page).length).toBeLessThan(100 * 1024);
    const [first, second] = page.messages;
    expect(first).toMatchObject({ number: 1, textTruncated: true });
    expect(first.text.startsWith('start lorem ipsum')).toBe(true);
    expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(64 * 1024);
    expect(second).toMatchObject({ number: 2, text: 'm2' });
    expect(second).not.toHaveProperty('textTruncated');
    const thread = await h.call('messages.thread', { roomId: 'lab', rootNumber: 1 });
    expect(JSON.stringify(thread).length).toBeLessThan(100 * 1024);
    expect(thread.root).toMatchObject({ textTruncated: true });
  });
});
