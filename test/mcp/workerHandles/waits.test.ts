// Event-driven waits (mcp-tools.md §5.3, worker-handles.md §11 case 19). In-process app
// behind the real agent socket, so the test can watch every statement the app's SQLite
// connection runs: domain code reads through store.db directly, so Store.readCount alone
// would not prove anything; every prepare/exec/pragma on the connection is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/main/store/database';
import { startInProcessApp, type InProcessApp } from './apps';
import { call, pause, register, send } from './tools';

let inproc: InProcessApp;

beforeAll(async () => {
  inproc = await startInProcessApp();
}, 60_000);

afterAll(() => inproc?.close());

interface Statement {
  readonly sql: string;
  readonly at: number;
}

/** Records every statement the connection prepares or runs, from now on (test-only spy). */
function recordStatements(db: Db): { log: Statement[]; stop(): void } {
  const log: Statement[] = [];
  const target = db as unknown as Record<'prepare' | 'exec' | 'pragma', (sql: string, ...rest: unknown[]) => unknown>;
  const originals = { prepare: target.prepare, exec: target.exec, pragma: target.pragma };
  for (const name of ['prepare', 'exec', 'pragma'] as const) {
    target[name] = function (this: unknown, sql: string, ...rest: unknown[]) {
      log.push({ sql: name === 'pragma' ? `PRAGMA ${sql}` : sql, at: performance.now() });
      return originals[name].call(db, sql, ...rest);
    };
  }
  return { log, stop: () => Object.assign(target, originals) };
}

/** A statement that reads: SELECT/WITH queries and pragmas (writes and transaction control excluded). */
const isRead = (s: Statement) => /^\s*(SELECT|WITH|PRAGMA)\b/i.test(s.sql);

describe('wait_for_messages sleeps on the commit signal (in-process: to watch the database connection)', () => {
  it('case 19: an idle wait runs no read queries, and the activating message\'s commit wakes it', async ({ annotate }) => {
    const [c1, c2] = await Promise.all([inproc.connect(), inproc.connect()]);
    const room = await inproc.room(c1, 'case-19');
    const w = await register(c1, { room_id: room, registration_key: 'case-19-w-4f7a9c2e81d6b035', display_name: 'Mallow' });
    const v = await register(c2, { room_id: room, registration_key: 'case-19-v-4f7a9c2e81d6b035', display_name: 'Clover' });
    const cursor = (await call(c1, 'wait_for_messages', { worker_id: w.worker_id, timeout: 1_000 })).last_observed_message_id;

    const { store, bus } = inproc.app.core;
    const recorder = recordStatements(store.db);
    let committedAt = 0;
    const unsubscribe = bus.on('message.created', () => (committedAt ||= performance.now()));
    try {
      const waiting = call(c1, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: cursor, timeout: 60_000 });
      await pause(300); // the wait has checked the room and gone to sleep
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
