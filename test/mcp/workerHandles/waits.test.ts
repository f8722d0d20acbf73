// Event-driven waits (mcp-tools.md §5.3, worker-handles.md §11 case 19). In-process app
// behind the real agent socket, so the test can watch every read the app makes: the domain
// reaches the database only through the storage port (lint keeps it so), so every read()
// of the room's storage (this computer's, or the team's) is recorded, and readCount is checked too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable, SqlValue, Storage } from '../../../src/main/store/port';
import { startInProcessApp, type InProcessApp } from './apps';
import { TEST_PLACE } from '../../support/place';
import { call, pause, register, send, until } from './tools';

let inproc: InProcessApp;
/** A retry (CI runs a failed test once more) starts in a room of its own, clear of the first try's wait. */
let attempt = 0;

beforeAll(async () => {
  inproc = await startInProcessApp();
}, 60_000);

afterAll(() => inproc?.close());

interface Statement {
  readonly sql: string;
  readonly at: number;
}

/** Records every statement the storage's reads run, from now on (test-only spy on read()). */
function recordReads(store: Storage): { log: Statement[]; stop(): void } {
  const log: Statement[] = [];
  const original = store.read;
  const note = (sql: string) => log.push({ sql, at: performance.now() });
  function spied<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    return original.call(store, (q: Queryable) =>
      fn({
        dialect: q.dialect,
        get: <R>(sql: string, ...params: SqlValue[]) => (note(sql), q.get<R>(sql, ...params)),
        all: <R>(sql: string, ...params: SqlValue[]) => (note(sql), q.all<R>(sql, ...params)),
        run: (sql: string, ...params: SqlValue[]) => (note(sql), q.run(sql, ...params)),
      }),
    ) as Promise<T>;
  }
  Object.assign(store, { read: spied });
  return { log, stop: () => Object.assign(store, { read: original }) };
}

/** A statement that reads: SELECT/WITH queries. */
const isRead = (s: Statement) => /^\s*(SELECT|WITH)\b/i.test(s.sql);

describe('wait_for_messages sleeps on the commit signal (in-process: to watch the database connection)', () => {
  it('case 19: an idle wait runs no read queries, and the activating message\'s commit wakes it', async ({ annotate }) => {
    const [c1, c2] = await Promise.all([inproc.connect(), inproc.connect()]);
    attempt += 1;
    const room = await inproc.room(c1, `case-19-${attempt}`);
    const w = await register(c1, { room_id: room, registration_key: `case-19-w${attempt}-4f7a9c2e81d6b035`, display_name: 'Mallow' });
    const v = await register(c2, { room_id: room, registration_key: `case-19-v${attempt}-4f7a9c2e81d6b035`, display_name: 'Clover' });
    const cursor = (await call(c1, 'wait_for_messages', { worker_id: w.worker_id, timeout: 1_000 })).last_observed_message_id;

    // The storage that holds the room: this computer's, or in the team variant the team's.
    const store = await inproc.app.places.get(TEST_PLACE);
    const recorder = recordReads(store);
    const { bus } = inproc.app.core;
    let committedAt = 0;
    const unsubscribe = bus.on('message.created', () => (committedAt ||= performance.now()));
    try {
      const waiting = call(c1, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: cursor, timeout: 60_000 });
      // The wait has looked at the room (its read of the newest number) and gone to sleep.
      await until(() => recorder.log.some((s) => /FROM messages WHERE room_id = \? ORDER BY number DESC/.test(s.sql)), 'the wait looked at the room');
      // The look goes on after that read (its @all turns, say): on a team's database those reads
      // land milliseconds later, so the idle window starts once the log has been still for 250 ms.
      await until(() => performance.now() - (recorder.log.at(-1)?.at ?? 0) > 250, 'the look ended');
      const idleFrom = recorder.log.length;
      const readCountBefore = store.readCount;
      await pause(1_000);
      const duringIdle = recorder.log.slice(idleFrom).filter(isRead);
      expect(duringIdle, JSON.stringify(duringIdle)).toEqual([]);
      expect(store.readCount).toBe(readCountBefore);

      const sent = await send(c2, { worker_id: v.worker_id, text: '@Mallow the build is green' });
      const woke = await waiting;
      const returnedAt = performance.now();
      expect(woke.messages.map((m: { id: string }) => m.id)).toEqual([sent]);
      expect(woke.messages[0].activation.for_current_agent.decision).toBe('activate');
      // The 60 s wait returned with the message, so the commit woke it, not a timer.
      expect(committedAt).toBeGreaterThan(0);
      // The recorder is not blind: the send and the woken wait both read.
      expect(recorder.log.slice(idleFrom).filter(isRead).length).toBeGreaterThan(0);
      await annotate(`commit → wait result through the helper: ${(returnedAt - committedAt).toFixed(1)} ms (spec: within 100 ms)`);
    } finally {
      unsubscribe();
      recorder.stop();
    }
  });
});
