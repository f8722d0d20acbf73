// The 'local' place: this computer's SQLite file behind the storage port. Writes go through
// one connection, one BEGIN IMMEDIATE transaction at a time (async SQLITE_BUSY backoff);
// reads go through a second, query-only connection, which in WAL mode sees the last
// committed state, so a read never sees the rows of a write that is still open (a write
// function is async and other work runs while it awaits).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
import type { EventBus } from '../../events/bus';
import { placed } from '../../events/types';
import { openDatabase, type Db } from './database';
import type { ConnectionState, Queryable, RunResult, SqlValue, Storage, Tx, WriteOptions } from '../port';
import { CommitEffects, WriteQueue } from '../writeQueue';
import { beginImmediate } from './beginImmediate';
import { sqliteDialect } from './sqliteDialect';
import { SqliteQueryable } from './sqliteQueryable';

export interface SqliteStorageOptions {
  /** The database file; ':memory:' is a private temporary file, removed on close. */
  path: string;
  bus: EventBus;
  /** Clock for timestamps; tests inject one. */
  clock?: () => Date;
  /**
   * Reads only (the CLI looking at a running app's file): nothing is migrated or switched to
   * WAL, and every write is refused.
   */
  readonly?: boolean;
}

const ONLINE: ConnectionState = { status: 'online' };
const noop = () => () => undefined;

export class SqliteStorage implements Storage {
  readonly place = 'local';
  readonly dialect = sqliteDialect;
  readCount = 0;
  /** The database file (a private temporary one for ':memory:'). */
  readonly path: string;
  private readonly writer: SqliteQueryable | null;
  private readonly reader: SqliteQueryable;
  private readonly queue = new WriteQueue();
  private readonly clock: () => Date;
  private readonly bus: EventBus;
  private readonly tempDir: string | null;
  private dataVersion: Statement | null = null;
  private closing: Promise<void> | null = null;

  /** Opens (creating and migrating if needed) the database: the same file, migrations and pragmas as openDatabase. */
  constructor(options: SqliteStorageOptions) {
    // Two connections cannot share one in-memory database with snapshot isolation, so an
    // in-memory store is a temporary file instead: the same code path as the real one.
    this.tempDir = options.path === ':memory:' ? mkdtempSync(join(tmpdir(), 'letagents-memory-')) : null;
    this.path = this.tempDir ? join(this.tempDir, 'letagents.db') : options.path;
    this.bus = options.bus;
    this.clock = options.clock ?? (() => new Date());
    if (options.readonly) {
      this.writer = null;
      this.reader = new SqliteQueryable(openDatabase(this.path, { readonly: true }), sqliteDialect);
      return;
    }
    const writeDb = openDatabase(this.path);
    let readDb: Db;
    try {
      readDb = new Database(this.path, { timeout: 0 });
      readDb.pragma('query_only = ON');
      readDb.pragma('busy_timeout = 0');
    } catch (error) {
      writeDb.close();
      throw error;
    }
    this.writer = new SqliteQueryable(writeDb, sqliteDialect);
    this.reader = new SqliteQueryable(readDb, sqliteDialect);
  }

  now(): string {
    return this.clock().toISOString();
  }

  read<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    if (this.closing) return Promise.reject(new Error('The store is closed.'));
    this.readCount++;
    return fn(this.reader);
  }

  write<T>(fn: (tx: Tx) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    return this.queue.enqueue((committed) => this.runWrite(fn, committed), options.quiet === true);
  }

  get writing(): boolean {
    return this.queue.busy;
  }

  drain(): Promise<void> {
    return this.queue.drain();
  }

  // The writer's data_version: it moves on only for other connections' commits (SQLite's
  // PRAGMA data_version), which is what a cache of this app's own writes must notice.
  othersCommitStamp(): number | null {
    const db = this.writer?.db;
    if (!db || db.inTransaction || this.closing) return null;
    this.dataVersion ??= db.prepare('PRAGMA data_version').pluck();
    return this.dataVersion.get() as number;
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.drain();
      this.reader.db.close();
      this.writer?.db.close();
      if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    })());
  }

  connection(): ConnectionState {
    return ONLINE;
  }

  // This computer's file is never offline and has no other apps writing to it.
  onConnectionChange = noop;
  onRemoteChange = noop;
  onReconnect = noop;

  private async runWrite<T>(fn: (tx: Tx) => Promise<T>, committed: () => void): Promise<T> {
    if (this.closing) throw new Error('The store is closed.');
    if (!this.writer) throw new Error('This database was opened for reading only.');
    const db = this.writer.db;
    await beginImmediate(db);
    const effects = new CommitEffects();
    const tx = new SqliteTx(this.writer, this.now(), effects);
    let value: T;
    try {
      value = await fn(tx);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    } finally {
      tx.end();
    }
    committed();
    effects.run((event) => this.bus.publish(placed(event, this.place)));
    return value;
  }
}

/** A write's queries on the writer connection; refuses use after its write ended. */
class SqliteTx implements Tx {
  readonly dialect = sqliteDialect;
  readonly emit: Tx['emit'];
  readonly afterCommit: Tx['afterCommit'];
  private open = true;
  private savepoints = 0;

  constructor(private readonly q: SqliteQueryable, readonly now: string, effects: CommitEffects) {
    this.emit = effects.emit;
    this.afterCommit = effects.afterCommit;
  }

  end(): void {
    this.open = false;
  }

  get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return this.check() ?? this.q.get<T>(sql, ...params);
  }

  all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return this.check() ?? this.q.all<T>(sql, ...params);
  }

  run(sql: string, ...params: SqlValue[]): Promise<RunResult> {
    return this.check() ?? this.q.run(sql, ...params);
  }

  async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    const closed = this.check();
    if (closed) return closed;
    const name = `sp_${++this.savepoints}`;
    this.q.db.exec(`SAVEPOINT ${name}`);
    try {
      const value = await fn();
      this.q.db.exec(`RELEASE ${name}`);
      return value;
    } catch (error) {
      this.q.db.exec(`ROLLBACK TO ${name}`);
      this.q.db.exec(`RELEASE ${name}`);
      throw error;
    }
  }

  // A query started after COMMIT would run outside any transaction: refuse it loudly.
  private check(): Promise<never> | undefined {
    return this.open ? undefined : Promise.reject(new Error('This write has ended; a query ran after it (a missing await?).'));
  }
}
