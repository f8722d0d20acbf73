// This computer's storage for tests: the real SqliteStorage (':memory:' is a private
// temporary file), closed after each test, plus what tests need beside the port: a raw
// better-sqlite3 connection on the same file (snapshots, assertions, rows the domain never
// writes itself) and committed reads as a Queryable, for calling the domain's read functions.
import { afterEach } from 'vitest';
import Database from 'better-sqlite3';
import { EventBus } from '../../src/main/events/bus';
import type { CoreEvent } from '../../src/main/events/types';
import type { Db } from '../../src/main/store/sqlite/database';
import type { Queryable, SqlValue, Storage, Tx } from '../../src/main/store/port';
import { sqliteDialect } from '../../src/main/store/sqlite/sqliteDialect';
import { SqliteQueryable } from '../../src/main/store/sqlite/sqliteQueryable';
import { SqliteStorage, type SqliteStorageOptions } from '../../src/main/store/sqlite/sqliteStorage';

const open = new Set<TestStorage>();
afterEach(async () => {
  const closing = [...open];
  open.clear();
  await Promise.all(closing.map((storage) => storage.close()));
});

const raws = new WeakMap<SqliteStorage, Db>();

/**
 * A second connection on `storage`'s file, outside the port (closed with the storage): it
 * sees committed data only, and what it writes (test seeding) commits at once. Never write
 * through it while a write of the storage is open.
 */
export function rawDbOf(storage: SqliteStorage): Db {
  let raw = raws.get(storage);
  if (!raw) {
    const opened = new Database(storage.path, { timeout: 5_000 });
    opened.pragma('foreign_keys = ON');
    raws.set(storage, (raw = opened));
    const close = storage.close.bind(storage);
    storage.close = () => {
      if (opened.open) opened.close();
      return close();
    };
  }
  return raw;
}

export class TestStorage extends SqliteStorage {
  /** Committed reads: each statement is one read of this storage (readCount counts them). */
  readonly q: Queryable = committedReads(this);

  constructor(options: Partial<SqliteStorageOptions> = {}) {
    super({ path: ':memory:', bus: new EventBus(), ...options });
    open.add(this);
  }

  /** rawDbOf(this): a raw connection on the same file, for snapshots and seeding. */
  get db(): Db {
    return rawDbOf(this);
  }

  override async close(): Promise<void> {
    open.delete(this);
    await super.close();
  }
}

/** A TestStorage and the events its writes published. */
export function openTestStorage(options: { path?: string; clock?: () => Date } = {}): { store: TestStorage; bus: EventBus; events: CoreEvent[] } {
  const bus = new EventBus();
  const events: CoreEvent[] = [];
  bus.onAny((event) => events.push(event));
  return { store: new TestStorage({ ...options, bus }), bus, events };
}

/** A Queryable over `storage`'s committed state, one read per statement. */
export function committedReads(storage: Storage): Queryable {
  return {
    dialect: storage.dialect,
    get: <T>(sql: string, ...params: SqlValue[]) => storage.read((q) => q.get<T>(sql, ...params)),
    all: <T>(sql: string, ...params: SqlValue[]) => storage.read((q) => q.all<T>(sql, ...params)),
    run: (sql: string, ...params: SqlValue[]) => storage.read((q) => q.run(sql, ...params)),
  };
}

/**
 * Runs `fn` as one write transaction on a raw connection, without the storage (which would
 * migrate the file first): the app's own code writing a database at an older schema, for
 * migration tests. Events and afterCommit callbacks are dropped.
 */
export async function writeRaw<T>(db: Db, fn: (tx: Tx) => Promise<T>, now = new Date().toISOString()): Promise<T> {
  const q = new SqliteQueryable(db, sqliteDialect);
  let savepoints = 0;
  const tx: Tx = {
    dialect: sqliteDialect,
    now,
    get: (sql, ...params) => q.get(sql, ...params),
    all: (sql, ...params) => q.all(sql, ...params),
    run: (sql, ...params) => q.run(sql, ...params),
    emit: () => undefined,
    afterCommit: () => undefined,
    async savepoint(inner) {
      const name = `raw_${++savepoints}`;
      db.exec(`SAVEPOINT ${name}`);
      try {
        const value = await inner();
        db.exec(`RELEASE ${name}`);
        return value;
      } catch (error) {
        db.exec(`ROLLBACK TO ${name}`);
        db.exec(`RELEASE ${name}`);
        throw error;
      }
    },
  };
  db.exec('BEGIN IMMEDIATE');
  try {
    const value = await fn(tx);
    db.exec('COMMIT');
    return value;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
