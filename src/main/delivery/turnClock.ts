// The turn clock of @all answered in turn (issue 34 item 2): a turn that nobody ends (no answer,
// no pass) ends at its deadline, and nothing commits then. Whoever reads a round with an open
// turn (a wait, the receipts, a managed trigger) tells the clock its deadline; one timer per
// room, at the earliest, says "the turn moved" then: the room's waiters look again (RoomSignals),
// the receipts refresh (a `message.receipts` event marked `turn`), listeners re-decide.
import type { EventBus } from '../events/bus';
import { placeKey } from '../domain/placeKeys';

type TurnListener = (place: string, roomId: string, number: number) => void;

interface Due {
  readonly at: number;
  readonly number: number;
  readonly timer: NodeJS.Timeout;
}

/** Rooms with a timer at most (each a few bytes; a deadline past this many is read again by the next look). */
const MAX_ROOMS = 10_000;

export class TurnClock {
  private readonly due = new Map<string, Due & { place: string; roomId: string }>();
  private readonly listeners = new Set<TurnListener>();

  constructor(private readonly bus: EventBus) {}

  /** Broadcast `number` of the room has a turn that ends at `at` (ms) unless someone ends it first. */
  dueAt(place: string, roomId: string, number: number, at: number): void {
    const key = placeKey(place, roomId);
    const held = this.due.get(key);
    if (held && held.at <= at) return;
    if (held) clearTimeout(held.timer);
    else if (this.due.size >= MAX_ROOMS) return;
    const timer = setTimeout(() => {
      this.due.delete(key);
      this.moved(place, roomId, number);
    }, Math.max(0, at - Date.now()) + 1);
    timer.unref();
    this.due.set(key, { at, number, timer, place, roomId });
  }

  /** A turn of broadcast `number` moved (a deadline, a pass): the room's waiters and the receipts look again. */
  moved(place: string, roomId: string, number: number): void {
    this.bus.publish({ type: 'message.receipts', place, roomId, sessionId: '', first: number, last: number, turn: true });
    for (const listener of this.listeners) listener(place, roomId, number);
  }

  /** Calls `listener` each time a turn moves at its deadline or by a pass; returns the unsubscribe. */
  onTurn(listener: TurnListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    for (const due of this.due.values()) clearTimeout(due.timer);
    this.due.clear();
    this.listeners.clear();
  }
}
