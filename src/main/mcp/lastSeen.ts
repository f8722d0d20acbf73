// Batches "last seen" touches of agent sessions: reads stay read-only, and the newest
// activity reaches each place's database within a few seconds (and on close). In a team's
// database, shared by fifty apps, an agent's row is written at most once a minute: a thousand
// busy agents then cost at most ~17 row updates a second there (plus one heartbeat row per app
// every 10 s, the hub's), whatever they do; "online" across machines follows the app's
// heartbeat, not these rows.
import { LOCAL_PLACE, type Places } from '../store/places';
import { touchLastSeen } from '../domain/sessions/presence';
import { placeKey, splitPlaceKey } from '../domain/placeKeys';

const FLUSH_EVERY_MS = 5_000;
/** The least time between two writes of one agent's last-seen in a team database. */
export const TEAM_LAST_SEEN_EVERY_MS = 60_000;

export class LastSeenTracker {
  private readonly dirty = new Set<string>();
  /** When each team session's last-seen was last written (entries older than the minute are dropped). */
  private readonly written = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly places: Places) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  touch(place: string, sessionId: string): void {
    this.dirty.add(placeKey(place, sessionId));
  }

  async flush(final = false): Promise<void> {
    if (this.dirty.size === 0) return;
    const now = Date.now();
    for (const [key, at] of this.written) if (now - at >= TEAM_LAST_SEEN_EVERY_MS) this.written.delete(key);
    const byPlace = new Map<string, string[]>();
    for (const key of this.dirty) {
      const { place, id } = splitPlaceKey(key);
      // Written within the minute: stays dirty for a later flush (or the last one, on close).
      if (place !== LOCAL_PLACE && this.written.has(key) && !final) continue;
      if (place !== LOCAL_PLACE) this.written.set(key, now);
      this.dirty.delete(key);
      byPlace.set(place, [...(byPlace.get(place) ?? []), id]);
    }
    // A place that cannot be written just now (a team offline) loses only these touches.
    await Promise.all(
      [...byPlace].map(async ([place, ids]) => {
        try {
          const storage = await this.places.get(place);
          await storage.write(
            async (tx) => {
              for (const id of ids) await touchLastSeen(tx, id);
            },
            { bookkeeping: true, quiet: true },
          );
        } catch {
          // next activity touches again
        }
      }),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush(true);
  }
}
