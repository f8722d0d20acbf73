// P1: what the async storage port costs per query on the 'local' place. The same indexed
// point read (a message by room and number) 100 000 times: synchronously on better-sqlite3
// through openDatabase's kept statements (today's path, the floor), and awaited through the
// port (storage.read + q.get, one read per query: the costliest way to use it). Alternating
// blocks in this process; a figure is the median per-call time of its blocks.
import { join } from 'node:path';
import { EventBus } from '../../src/main/events/bus';
import { openDatabase } from '../../src/main/store/sqlite/database';
import { SqliteStorage } from '../../src/main/store/sqlite/sqliteStorage';
import type { Figure } from '../lib/figure';
import { collectGarbage, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const BLOCKS = 10;
const PER_BLOCK = 10_000;
const MESSAGES = 1_000;
const SQL = 'SELECT room_id, number, sender, text, created_at FROM messages WHERE room_id = ? AND number = ?';
/** What "tiny" means: B1–B9 measure milliseconds, so a microsecond per query is noise in them. */
const TARGET_EXTRA_US = 1;

export const p1: Figure = {
  id: 'P1',
  what: 'storage port overhead per query (SQLite, awaited vs synchronous)',
  target: `≤ ${TARGET_EXTRA_US} µs added per query`,
  async run() {
    const ws = workspace();
    const path = join(ws.root, 'port.db');
    const storage = new SqliteStorage({ path, bus: new EventBus() });
    await storage.write(async (tx) => {
      await tx.run("INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES ('r', 'named', 'r', ?, ?)", tx.now, tx.now);
      for (let n = 1; n <= MESSAGES; n++) {
        await tx.run(
          "INSERT INTO messages (room_id, number, kind, source, sender, text, created_at) VALUES ('r', ?, 'message', 'human', 'Ada', ?, ?)",
          n, `message ${n}`, tx.now,
        );
      }
    });
    const db = openDatabase(path);
    try {
      const syncBlock = () => {
        const start = performance.now();
        for (let i = 0; i < PER_BLOCK; i++) db.prepare(SQL).get('r', (i % MESSAGES) + 1);
        return ((performance.now() - start) * 1000) / PER_BLOCK;
      };
      const portBlock = async () => {
        const start = performance.now();
        for (let i = 0; i < PER_BLOCK; i++) await storage.read((q) => q.get(SQL, 'r', (i % MESSAGES) + 1));
        return ((performance.now() - start) * 1000) / PER_BLOCK;
      };
      const innerBlock = async () =>
        storage.read(async (q) => {
          const start = performance.now();
          for (let i = 0; i < PER_BLOCK; i++) await q.get(SQL, 'r', (i % MESSAGES) + 1);
          return ((performance.now() - start) * 1000) / PER_BLOCK;
        });
      syncBlock();
      await portBlock();
      await innerBlock();
      const sync: number[] = [];
      const port: number[] = [];
      const inner: number[] = [];
      for (let b = 0; b < BLOCKS; b++) {
        collectGarbage();
        sync.push(syncBlock());
        collectGarbage();
        port.push(await portBlock());
        collectGarbage();
        inner.push(await innerBlock());
      }
      const ours = summarize(port);
      const floor = summarize(sync);
      const within = summarize(inner);
      return {
        ours: { label: 'await storage.read(q => q.get(…)) per query', unit: 'µs', ...ours },
        floor: { label: 'db.prepare(sql).get(…), synchronous better-sqlite3', unit: 'µs', ...floor },
        ratio: ours.median / floor.median,
        met: ours.median - floor.median <= TARGET_EXTRA_US,
        notes: [
          `${BLOCKS * PER_BLOCK} calls each; added per query: ${(ours.median - floor.median).toFixed(2)} µs`,
          `awaiting q.get inside one read: ${within.median.toFixed(2)} µs per query (${(within.median / floor.median).toFixed(2)}× sync)`,
        ],
      };
    } finally {
      db.close();
      await storage.close();
    }
  },
};
