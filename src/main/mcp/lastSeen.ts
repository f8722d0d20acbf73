// Batches "last seen" touches of agent sessions: reads stay read-only, and the newest
// activity reaches each place's database within a few seconds (and on close).
import type { Places } from '../store/places';
import { touchLastSeen } from '../domain/sessions/presence';
import { placeKey, splitPlaceKey } from '../domain/placeKeys';

const FLUSH_EVERY_MS = 5_000;

export class LastSeenTracker {
  private readonly dirty = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly places: Places) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  touch(place: string, sessionId: string): void {
    this.dirty.add(placeKey(place, sessionId));
  }

  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const byPlace = new Map<string, string[]>();
    for (const key of this.dirty) {
      const { place, id } = splitPlaceKey(key);
      byPlace.set(place, [...(byPlace.get(place) ?? []), id]);
    }
    this.dirty.clear();
    // A place that cannot be written just now (a team offline) loses only these touches.
    await Promise.all(
      [...byPlace].map(async ([place, ids]) => {
        try {
          const storage = await this.places.get(place);
          await storage.write(async (tx) => {
            for (const id of ids) await touchLastSeen(tx, id);
          });
        } catch {
          // next activity touches again
        }
      }),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
