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
import type { Queryable, SqlValue } from '../../../../src/main/store/port';
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
    expect(numbers(await newestPage(t.q, room, 3))).toEqual([5, 6, 7]);
    expect(numbers(await newestPage(t.q, room, 100))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('limit 0 reads the full history', async () => {
    const t = makeStore();
    const room = await roomWith(t, 5);
    expect(numbers(await newestPage(t.q, room, 0))).toEqual([1, 2, 3, 4, 5]);
  });

  it('the page after a cursor continues oldest first', async () => {
    const t = makeStore();
    const room = await roomWith(t, 7);
    expect(numbers(await pageAfter(t.q, room, 2, 3))).toEqual([3, 4, 5]);
    expect(numbers(await pageAfter(t.q, room, 5, 0))).toEqual([6, 7]);
    expect(await pageAfter(t.q, room, 7, 10)).toEqual([]);
    expect(numbers(await pageBefore(t.q, room, 4, 2))).toEqual([2, 3]);
  });

  it('never mixes rooms', async () => {
    const t = makeStore();
    const a = await roomWith(t, 3, 'a');
    await roomWith(t, 2, 'b');
    expect((await newestPage(t.q, a, 0)).map((r) => r.text)).toEqual(['m1', 'm2', 'm3']);
    expect(await totalMessageCount(t.q, a)).toBe(3);
    expect(await latestNumber(t.q, 'b')).toBe(2);
    expect(await latestNumber(t.q, 'empty')).toBe(0);
  });

  it('includes prompt-only rows', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, '', { author: agent('Juniper'), agentPromptKind: 'auto' });
    expect(await newestPage(t.q, room, 10)).toHaveLength(1);
    expect((await getMessageRow(t.q, room, 1))?.agent_prompt_kind).toBe('auto');
    expect(await getMessageRow(t.q, room, 2)).toBeNull();
  });
});

describe('the queries use the indexes', () => {
  /** Runs `read` while recording the SQL it runs, then returns each statement's query plan. */
  async function plansOf(read: (q: Queryable, room: string) => Promise<void>): Promise<string[]> {
    const t = makeStore();
    const room = await roomWith(t, 3);
    await post(t, room, 'reply', { threadParentId: 'msg_1' });
    const seen: string[] = [];
    const recording: Queryable = {
      dialect: t.q.dialect,
      get: <T>(sql: string, ...params: SqlValue[]) => (seen.push(sql), t.q.get<T>(sql, ...params)),
      all: <T>(sql: string, ...params: SqlValue[]) => (seen.push(sql), t.q.all<T>(sql, ...params)),
      run: (sql: string, ...params: SqlValue[]) => (seen.push(sql), t.q.run(sql, ...params)),
    };
    await read(recording, room);
    return seen.map((sql) => {
      const params = (sql.match(/\?/g) ?? []).map(() => 1);
      const rows = t.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>;
      return rows.map((r) => r.detail).join(' | ');
    });
  }

  it('agent pages and single lookups search UNIQUE(room_id, number) and never sort', async () => {
    const plans = await plansOf(async (q, room) => {
      await newestPage(q, room, 2);
      await pageAfter(q, room, 1, 2);
      await pageBefore(q, room, 3, 2);
      await getMessageRow(q, room, 2);
      await latestNumber(q, room);
    });
    expect(plans).toHaveLength(5);
    for (const detail of plans) {
      expect(detail).toMatch(/USING (COVERING )?INDEX sqlite_autoindex_messages_1/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
  });

  it('the people timeline and threads use the number index and messages_thread', async () => {
    const plans = await plansOf(async (q, room) => {
      await timelinePage(q, room, { limit: 2 });
      await threadView(q, room, 1);
    });
    for (const detail of plans.filter((d) => /messages/.test(d))) {
      expect(detail).toMatch(/USING (COVERING )?INDEX (sqlite_autoindex_messages_1|messages_thread)/);
      expect(detail).not.toMatch(/SCAN messages(?! USING)/);
    }
    expect(plans.join(' ')).toMatch(/messages_thread/);
  });
});
