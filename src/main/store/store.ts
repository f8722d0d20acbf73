// The store: one SQLite connection, synchronous reads, and a single write queue.
// Each write is one BEGIN IMMEDIATE transaction; SQLITE_BUSY caused by an outside
// connection is retried asynchronously with backoff (10 ms rising to 250 ms, giving up
// after 5 s), so the event loop never blocks. Events collected during a write are
// published only after COMMIT.
import type { CoreEvent } from '../events/types';
import type { EventBus } from '../events/bus';
import type { Db } from './database';
import { beginImmediate } from './sqlite/beginImmediate';

export { DatabaseBusyError } from './sqlite/beginImmediate';

/** What a write function gets: the connection inside an open transaction. */
export interface Tx {
  readonly db: Db;
  /** The write's timestamp (ISO-8601 UTC with milliseconds), the same for the whole write. */
  readonly now: string;
  /** Queues an event to publish after the commit. */
  emit(event: CoreEvent): void;
  /** Runs `fn` after the commit (e.g. waking waiters); never runs on rollback. */
  afterCommit(fn: () => void): void;
}

export class Store {
  /** Counts read() calls; tests use it to prove that idle waits do not poll. */
  readCount = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private closed = false;

  constructor(
    readonly db: Db,
    private readonly bus: EventBus,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  now(): string {
    return this.clock().toISOString();
  }

  /** Runs a read against the committed state. */
  read<T>(fn: (db: Db) => T): T {
    this.readCount++;
    return fn(this.db);
  }

  /** Queues a write; resolves after COMMIT with `fn`'s value, or rejects after ROLLBACK. */
  write<T>(fn: (tx: Tx) => T): Promise<T> {
    this.queued++;
    const run = this.queue.then(() => this.runWrite(fn)).finally(() => this.queued--);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** True while a write is queued or running: more commits are on their way. */
  get writing(): boolean {
    return this.queued > 0;
  }

  /** Resolves when every queued write has settled. */
  async drain(): Promise<void> {
    await this.queue;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.drain();
    this.db.close();
  }

  private async runWrite<T>(fn: (tx: Tx) => T): Promise<T> {
    if (this.closed) throw new Error('The store is closed.');
    await beginImmediate(this.db);
    const events: CoreEvent[] = [];
    const after: Array<() => void> = [];
    const tx: Tx = {
      db: this.db,
      now: this.now(),
      emit: (event) => events.push(event),
      afterCommit: (cb) => after.push(cb),
    };
    let value: T;
    try {
      value = fn(tx);
      if (value instanceof Promise) throw new Error('A write function must be synchronous.');
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
    for (const cb of after) cb();
    for (const event of events) this.bus.publish(event);
    return value;
  }
}
