// Receipts as they happen (issue 14): read_messages and wait_for_messages report what they
// returned to which session; listeners (the unanswered-message watcher) hear it at once,
// and the store gets the batch in one write shortly after, so a wait's result never waits
// for a commit and fifty agents woken together cost one transaction, not fifty.
import { recordDeliveries, type Delivery } from '../domain/delivery/receipts';
import type { Store } from '../store/store';

/** How long deliveries gather before they are written. */
const FLUSH_AFTER_MS = 100;

export class Deliveries {
  private pending: Delivery[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<(delivery: Delivery) => void>();

  constructor(private readonly store: Store) {}

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
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.timer.unref?.();
    }
  }

  /** True when a delivery not yet written covers message `number` for the session. */
  pendingCovers(roomId: string, sessionId: string, number: number): boolean {
    return this.pendingAt(roomId, sessionId, number) !== null;
  }

  /** When a delivery not yet written brought message `number` to the session, or null. */
  pendingAt(roomId: string, sessionId: string, number: number): string | null {
    return this.pending.find((d) => d.roomId === roomId && d.sessionId === sessionId && d.first <= number && number <= d.last)?.at ?? null;
  }

  onDelivered(listener: (delivery: Delivery) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    if (batch.length === 0) return;
    try {
      await this.store.write((tx) => recordDeliveries(tx, batch));
    } catch (error) {
      console.error('receipts could not be stored:', error);
    } finally {
      // Kept pending until written, so pendingCovers holds meanwhile.
      this.pending = this.pending.filter((d) => !batch.includes(d));
    }
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.flush();
  }
}
