// One write at a time per place, in the order they were asked for; a failed write never
// stops the ones queued after it. Also collects what a write attempt emits, to run only
// after its COMMIT.
import type { EmittedEvent } from '../events/types';
import { hopTrace } from '../../shared-node/hopTrace';

/** The bench's per-hop timestamps (LETAGENTS_HOP_TRACE); null, and free, otherwise. */
const hops = hopTrace('app');

export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  /**
   * Runs `fn` after every write queued before it has settled. `fn` calls `committed` right
   * after its COMMIT, before its events go out: from then on it no longer counts as busy, so
   * whoever hears those events (a wake gathering its burst) does not wait for the very write
   * that brought them. A quiet write (bookkeeping that brings no messages) never counts.
   */
  enqueue<T>(fn: (committed: () => void) => Promise<T>, quiet = false): Promise<T> {
    let counted = !quiet;
    if (counted) this.queued++;
    const committed = () => {
      if (!counted) return;
      counted = false;
      this.queued--;
    };
    const run = this.tail.then(() => fn(committed)).finally(committed);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** True while a write is queued, or running and not yet committed. */
  get busy(): boolean {
    return this.queued > 0;
  }

  /** Resolves when every queued write has settled. */
  async drain(): Promise<void> {
    await this.tail;
  }
}

/** Events and afterCommit callbacks of one write attempt; dropped with the attempt on rollback. */
export class CommitEffects {
  private readonly events: EmittedEvent[] = [];
  private readonly callbacks: Array<() => void> = [];

  emit = (event: EmittedEvent): void => {
    this.events.push(event);
  };

  afterCommit = (fn: () => void): void => {
    this.callbacks.push(fn);
  };

  get emitted(): readonly EmittedEvent[] {
    return this.events;
  }

  /** After COMMIT: callbacks first (waking waiters), then events, as the Store always did. */
  run(publish: (event: EmittedEvent) => void): void {
    if (hops) for (const e of this.events) if (e.type === 'message.created') hops.mark('app.commit', `${e.roomId}:${e.number}`);
    for (const fn of this.callbacks) {
      try {
        fn();
      } catch (error) {
        // The write is committed: one failing callback must not turn it into a failure.
        console.error('afterCommit callback failed:', error);
      }
    }
    for (const event of this.events) publish(event);
  }
}
