// Why each agent session was woken (issue 18): for every wait_for_messages result that
// activated it, the first activating message, its routing reason and how many activated
// it. Kept in memory, the newest WAKES_PER_SESSION per session, so a person can spot
// wasted wakes; a wait is a read, and persisting each wake would add a write to every one.
import { placeKey } from '../domain/placeKeys';
import type { Concern, RoutingReason } from '../domain/activation/routing';

export interface WakeRecord {
  /** The room's place ('local' or a team). */
  readonly place: string;
  readonly roomId: string;
  readonly sessionId: string;
  /** When the result went out (ISO-8601 UTC). */
  readonly at: string;
  /** The first message of the result that activated the agent. */
  readonly messageNumber: number;
  readonly reason: RoutingReason;
  readonly addressed: boolean;
  readonly concern: Concern | null;
  /** Messages of the result that activated the agent (the first included). */
  readonly activating: number;
}

export const WAKES_PER_SESSION = 20;
/** Sessions remembered at most; the one woken longest ago is forgotten first. */
const SESSIONS = 1_000;

export class WakeLog {
  private readonly bySession = new Map<string, WakeRecord[]>();
  private readonly listeners = new Set<(wake: WakeRecord) => void>();

  record(wake: WakeRecord): void {
    const key = placeKey(wake.place, wake.sessionId);
    const list = this.bySession.get(key) ?? [];
    // Re-inserting keeps the map in order of the latest wake, so the oldest is first to go.
    this.bySession.delete(key);
    this.bySession.set(key, [wake, ...list].slice(0, WAKES_PER_SESSION));
    if (this.bySession.size > SESSIONS) this.bySession.delete(this.bySession.keys().next().value!);
    for (const listener of [...this.listeners]) {
      try {
        listener(wake);
      } catch (error) {
        console.error('wake listener failed:', error);
      }
    }
  }

  /** The wakes of the session of `place`, newest first. */
  of(place: string, sessionId: string): readonly WakeRecord[] {
    return this.bySession.get(placeKey(place, sessionId)) ?? [];
  }

  onWake(listener: (wake: WakeRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
