import { describe, expect, it } from 'vitest';
import {
  getMessageRow,
  latestNumber,
  newestPage,
  pageAfter,
  pageBefore,
  totalMessageCount,
} from '../../../../src/main/domain/messages/read';
import { threadView, timelinePage } from '../../../../src/main/domain/messages/timeline';
import { agent, makeStore, namedRoom, post, type TestStore } from './testStore';

async function roomWith(t: TestStore, count: number, roomId = 'team'): Promise<string> {
  const room = await namedRoom(t, roomId);
  for (let i = 1; i <= count; i++) await post(t, room, `m${i}`);
  return room;
}

const numbers = (rows: Array<{ number: number }>) => rows.map((r) => r.number);

describe('agents reading a room', () => {
  it('the newest page holds the newest N messages, oldest first', async () => {
    const t = makeStore();
    const room = await roomWith(t, 7);
    expect(numbers(newestPage(t.db, room, 3))).toEqual([5, 6, 7]);
    expect(numbers(newestPage(t.db, room, 100))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('limit 0 reads the full history', async () => {
    const t = makeStore();
    const room = await roomWith(t, 5);
    expect(numbers(newestPage(t.db, room, 0))).toEqual([1, 2, 3, 4, 5]);
  });

  it('the page after a cursor continues oldest first', async () => {
    const t = makeStore();
    const room = await roomWith(t, 7);
    expect(numbers(pageAfter(t.db, room, 2, 3))).toEqual([3, 4, 5]);
    expect(numbers(pageAfter(t.db, room, 5, 0))).toEqual([6, 7]);
    expect(pageAfter(t.db, room, 7, 10)).toEqual([]);
    expect(numbers(pageBefore(t.db, room, 4, 2))).toEqual([2, 3]);
  });

  it('never mixes rooms', async () => {
    const t = makeStore();
    const a = await roomWith(t, 3, 'a');
    await roomWith(t, 2, 'b');
    expect(newestPage(t.db, a, 0).map((r) => r.text)).toEqual(['m1', 'm2', 'm3']);
    expect(totalMessageCount(t.db, a)).toBe(3);
    expect(latestNumber(t.db, 'b')).toBe(2);
    expect(latestNumber(t.db, 'empty')).toBe(0);
  });

  it('includes prompt-only rows', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, '', { author: agent('Juniper'), agentPromptKind: 'auto' });
    expect(newestPage(t.db, room, 10)).toHaveLength(1);
    expect(getMessageRow(t.db, room, 1)?.agent_prompt_kind).toBe('auto');
    expect(getMessageRow(t.db, room, 2)).toBeNull();
  });
});

describe('the queries use the indexes', () => {
  /** Runs `read` while recording the SQL it prepares, then returns each statement's query plan. */
  async function plansOf(read: (t: TestStore, room: string) => void): Promise<string[]> {
    const t = makeStore();
    const room = await roomWith(t, 3);
    await post(t, room, 'reply', { threadParentId: 'msg_1' });
    const seen: string[] = [];
    const prepare = t.db.prepare.bind(t.db);
    t.db.prepare = ((sql: string) => {
      seen.push(sql);
      return prepare(sql);
    }) as typeof t.db.prepare;
    read(t, room);
    t.db.prepare = prepare as typeof t.db.prepare;
    return seen.map((sql) => {
      const params = (sql.match(/\?/g) ?? []).map(() => 1);
      const rows = prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
      return rows.map((r) => r.detail).join(' | ');
    });
  }

  it('agent pages and single lookups search UNIQUE(room_id, number) and never sort', async () => {
    const plans = await plansOf((t, room) => {
      newestPage(t.db, room, 2);
      pageAfter(t.db, room, 1, 2);
      pageBefore(t.db, room, 3, 2);
      getMessageRow(t.db, room, 2);
      latestNumber(t.db, room);
    });
    expect(plans).toHaveLength(5);
    for (const detail of plans) {
      expect(detail).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_messages_1/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('the people timeline and threads use the number index and messages_thread', async () => {
    const plans = await plansOf((t, room) => {
      timelinePage(t.db, room, { limit: 2 });
      threadView(t.db, room, 1);
    });
    for (const detail of plans.filter((d) => /messages/.test(d))) {
      expect(detail).toMatch(/USING (COVERING )?INDEX (sqlite_autoindex_messages_1|messages_thread)/);
      expect(detail).not.toMatch(/SCAN messages(?! USING)/);
    }
    expect(plans.join(' ')).toMatch(/messages_thread/);
  });
});
