// Receipts as they happen (issue 14): read_messages and wait_for_messages report what they
// returned to which session; listeners (the unanswered-message watcher) hear it at once,
// and the store gets the batch in one write shortly after, so a wait's result never waits
// for a commit and fifty agents woken together cost one transaction, not fifty.
import { recordDeliveries, type Delivery } from '../domain/delivery/receipts';
import type { Storage } from '../store/port';
import { BatchedWrite } from './background';

/** How long deliveries gather before they are written. */
const FLUSH_AFTER_MS = 100;

export class Deliveries {
  private pending: Delivery[] = [];
  private readonly batch = new BatchedWrite(FLUSH_AFTER_MS, () => this.write());
  private readonly listeners = new Set<(delivery: Delivery) => void>();

  constructor(private readonly store: Storage) {}

  /** Messages first..last of the room reached the session (those of them that route to it). */
  record(roomId: string, sessionId: string, first: number, last: number): void {
    if (last < first || first < 1) return;
    const delivery: Delivery = { roomId, sessionId, first, last, at: this.store.now() };
    this.pending.push(delivery);
    for (const listener of [...this.listeners]) {
      try {
        listener(delivery);
      } catch (error) {
        console.error('delivery listener failed:', error);
      }
    }
    this.batch.soon();
  }

  /** True when a delivery not yet written covers message `number` for the session. */
  pendingCovers(roomId: string, sessionId: string, number: number): boolean {
    return this.pendingAt(roomId, sessionId, number) !== null;
  }

  /** When a delivery not yet written brought message `number` to the session, or null. */
  pendingAt(roomId: string, sessionId: string, number: number): string | null {
    return deliveredAt(this.pending, roomId, sessionId, number);
  }

  /**
   * pendingAt as of now, for pairing with a read of the stored receipts started in the same
   * turn (on SQLite it runs at once, and a write's receipts leave this list at its COMMIT).
   */
  pendingNow(): (roomId: string, sessionId: string, number: number) => string | null {
    const pending = [...this.pending];
    return (roomId, sessionId, number) => deliveredAt(pending, roomId, sessionId, number);
  }

  onDelivered(listener: (delivery: Delivery) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes what is pending, after any write under way; never rejects (a failure is logged). */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.flush();
  }

  private async write(): Promise<void> {
    const batch = [...this.pending];
    if (batch.length === 0) return;
    // Kept pending until written, so pendingCovers holds meanwhile; dropped at COMMIT itself,
    // so receipts are never in both places nor in neither.
    const drop = () => {
      const written = new Set(batch);
      this.pending = this.pending.filter((d) => !written.has(d));
    };
    try {
      await this.store.write(async (tx) => {
        await recordDeliveries(tx, batch);
        tx.afterCommit(drop);
      });
    } catch (error) {
      console.error('receipts could not be stored:', error);
      drop();
    }
  }
}

function deliveredAt(pending: readonly Delivery[], roomId: string, sessionId: string, number: number): string | null {
  return pending.find((d) => d.roomId === roomId && d.sessionId === sessionId && d.first <= number && number <= d.last)?.at ?? null;
}
