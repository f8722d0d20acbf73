import { describe, expect, it } from 'vitest';
import { threadView, timelineAfter, timelinePage } from '../../../../src/main/domain/messages/timeline';
import { agent, makeStore, namedRoom, post } from './testStore';

const numbers = (rows: Array<{ number: number }>) => rows.map((r) => r.number);

describe('the people timeline', () => {
  it('pages back from the newest message, oldest first, and says when more is left', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    for (let i = 1; i <= 5; i++) await post(t, room, `m${i}`);
    const first = await timelinePage(t.q, room, { limit: 2 });
    expect(numbers(first.messages)).toEqual([4, 5]);
    expect(first.hasMore).toBe(true);
    const second = await timelinePage(t.q, room, { before: 4, limit: 2 });
    expect(numbers(second.messages)).toEqual([2, 3]);
    const last = await timelinePage(t.q, room, { before: 2, limit: 2 });
    expect(numbers(last.messages)).toEqual([1]);
    expect(last.hasMore).toBe(false);
  });

  it('hides prompt-only rows but shows other prompt rows', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const juniper = agent('Juniper');
    await post(t, room, 'visible');
    await post(t, room, '   ', { author: juniper, agentPromptKind: 'auto' });
    await post(t, room, 'auto prompt with text', { author: juniper, agentPromptKind: 'auto' });
    await post(t, room, 'inline', { agentPromptKind: 'inline' });
    expect(numbers((await timelinePage(t.q, room)).messages)).toEqual([1, 3, 4]);
    expect(numbers((await timelineAfter(t.q, room, 1)).messages)).toEqual([3, 4]);
  });

  it('keeps thread replies in the thread and shows the reply count on the root', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const root = await post(t, room, 'root');
    await post(t, room, 'r1', { threadParentId: `msg_${root}` });
    const r2 = await post(t, room, 'r2', { threadParentId: `msg_${root}` });
    await post(t, room, '', { author: agent('Juniper'), agentPromptKind: 'auto', threadParentId: `msg_${root}` });
    await post(t, room, 'top level');
    const page = await timelinePage(t.q, room);
    expect(numbers(page.messages)).toEqual([1, 5]);
    expect(page.messages[0]).toMatchObject({ replyCount: 2, latestReplyNumber: r2 });
    expect(page.messages[1]).toMatchObject({ replyCount: 0, latestReplyNumber: null });
    expect(numbers((await timelinePage(t.q, room, { includeThreadReplies: true })).messages)).toEqual([1, 2, 3, 5]);
  });

  it('reads forward after a message for live updates', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    for (let i = 1; i <= 4; i++) await post(t, room, `m${i}`);
    const page = await timelineAfter(t.q, room, 1, { limit: 2 });
    expect(numbers(page.messages)).toEqual([2, 3]);
    expect(page.hasMore).toBe(true);
  });

  it('lists attachment metadata with each message', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const n = await post(t, room, 'see file');
    await t.write((tx) =>
      tx.run('INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?, ?)', room, n, 'att_1', 'a.png', 'image/png', 10, 'a.png'),
    );
    expect((await timelinePage(t.q, room)).messages[0].attachments).toEqual([
      { id: 'att_1', fileName: 'a.png', mimeType: 'image/png', sizeBytes: 10 },
    ]);
  });
});

describe('a thread for people', () => {
  it('shows the root and its replies from any message of the thread', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const root = await post(t, room, 'root');
    await post(t, room, 'elsewhere');
    const r1 = await post(t, room, 'r1', { threadParentId: `msg_${root}` });
    const r2 = await post(t, room, 'r2', { threadParentId: `msg_${r1}` });
    await post(t, room, '', { author: agent('Juniper'), agentPromptKind: 'auto', threadParentId: `msg_${root}` });
    for (const from of [root, r1, r2]) {
      const view = await threadView(t.q, room, from);
      expect(view?.root.number).toBe(root);
      expect(view?.root.replyCount).toBe(2);
      expect(numbers(view?.replies ?? [])).toEqual([r1, r2]);
    }
    expect(await threadView(t.q, room, 99)).toBeNull();
  });

  it('pages through long threads', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const root = await post(t, room, 'root');
    for (let i = 0; i < 5; i++) await post(t, room, `r${i}`, { threadParentId: `msg_${root}` });
    const first = await threadView(t.q, room, root, { limit: 3 });
    expect(numbers(first?.replies ?? [])).toEqual([2, 3, 4]);
    expect(first?.hasMore).toBe(true);
    const rest = await threadView(t.q, room, root, { after: 4, limit: 3 });
    expect(numbers(rest?.replies ?? [])).toEqual([5, 6]);
    expect(rest?.hasMore).toBe(false);
  });
});
