// Receipts as they happen (issue 14): read_messages and wait_for_messages report what they
// returned to which session; listeners (the unanswered-message watcher) hear it at once,
// and the store gets the batch in one write shortly after, so a wait's result never waits
// for a commit and fifty agents woken together cost one transaction, not fifty (one per
// place: a team room's receipts live in the team's database).
import { recordDeliveries, type Delivery } from '../domain/delivery/receipts';
import { nowIn, storageIn, type Places, type PlacedRoom } from '../store/places';
import { BatchedWrite } from './background';

/** A delivery in a room of `place`. */
export interface PlacedDelivery extends Delivery {
  readonly place: string;
}

/** How long deliveries gather before they are written. */
const FLUSH_AFTER_MS = 100;

export class Deliveries {
  private pending: PlacedDelivery[] = [];
  private readonly batch = new BatchedWrite(FLUSH_AFTER_MS, () => this.write());
  private readonly listeners = new Set<(delivery: PlacedDelivery) => void>();

  constructor(private readonly places: Places) {}

  /** Messages first..last of the room reached the session (those of them that route to it). */
  record(room: PlacedRoom, sessionId: string, first: number, last: number): void {
    if (last < first || first < 1) return;
    const delivery: PlacedDelivery = { place: room.place, roomId: room.roomId, sessionId, first, last, at: nowIn(this.places, room.place) };
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
  pendingCovers(room: PlacedRoom, sessionId: string, number: number): boolean {
    return deliveredAt(this.pending, room, sessionId, number) !== null;
  }

  /**
   * pendingAt as of now, for pairing with a read of the stored receipts started in the same
   * turn (on SQLite it runs at once, and a write's receipts leave this list at its COMMIT).
   */
  pendingNow(room: PlacedRoom): (sessionId: string, number: number) => string | null {
    const pending = this.pending.filter((d) => d.place === room.place && d.roomId === room.roomId);
    return (sessionId, number) => deliveredAt(pending, room, sessionId, number);
  }

  onDelivered(listener: (delivery: PlacedDelivery) => void): () => void {
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
    if (this.pending.length === 0) return;
    const byPlace = new Map<string, PlacedDelivery[]>();
    for (const d of this.pending) byPlace.set(d.place, [...(byPlace.get(d.place) ?? []), d]);
    await Promise.all([...byPlace].map(([place, batch]) => this.writeIn(place, batch)));
  }

  private async writeIn(place: string, batch: PlacedDelivery[]): Promise<void> {
    // Kept pending until written, so pendingCovers holds meanwhile; dropped at COMMIT itself,
    // so receipts are never in both places nor in neither.
    const drop = () => {
      const written = new Set(batch);
      this.pending = this.pending.filter((d) => !written.has(d));
    };
    try {
      await (await storageIn(this.places, place)).write(async (tx) => {
        await recordDeliveries(tx, batch);
        tx.afterCommit(drop);
      }, { quiet: true });
    } catch (error) {
      console.error(`receipts could not be stored (${place}):`, error);
      drop();
    }
  }
}

function deliveredAt(pending: readonly PlacedDelivery[], room: PlacedRoom, sessionId: string, number: number): string | null {
  return pending.find((d) => d.roomId === room.roomId && d.place === room.place && d.sessionId === sessionId && d.first <= number && number <= d.last)?.at ?? null;
}
