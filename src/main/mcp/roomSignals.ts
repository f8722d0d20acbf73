// In-process signals raised after the commit of a new message in a room, by this app or (a
// team's NOTIFY hint) another app of the team. Waits (wait_for_messages) sleep on them
// instead of polling the database. When a team's lost connection comes back, every room of
// that place is raised: a hint may have been missed, so each waiter reads again. A hint that
// says its app had more on the way is remembered for the room (bounded), so a woken wait or a
// push gathers the rest of that burst (wakeGathering.ts).
import type { EventBus } from '../events/bus';
import { placeKey } from '../domain/placeKeys';

/** Rooms remembered with an announced burst at most (a flood of forged hints clears the lot). */
const MAX_ANNOUNCED = 1_000;

export class RoomSignals {
  private readonly sleepers = new Map<string, Set<() => void>>();
  /** Room key → when another app's hint said more of its burst was on the way. */
  private readonly announced = new Map<string, number>();
  private readonly unsubscribe: Array<() => void>;

  constructor(bus: EventBus) {
    this.unsubscribe = [
      bus.on('message.created', (event) => {
        const key = placeKey(event.place, event.roomId);
        if (event.remote) this.noteAnnounced(key, event.more === true);
        this.raise(key);
      }),
      // A turn of an @all moved (issue 34): a pass or a deadline commits no message, and an agent
      // whose session ended is away (its turn, if it was its, ends now).
      bus.on('message.receipts', (event) => {
        if (event.turn) this.raise(placeKey(event.place, event.roomId));
      }),
      bus.on('worker.changed', (event) => {
        if (event.change === 'ended') this.raise(placeKey(event.place, event.roomId));
      }),
      bus.on('place.reconnected', (event) => {
        for (const key of [...this.sleepers.keys()]) if (key.startsWith(placeKey(event.place, ''))) this.raise(key);
      }),
    ];
  }

  /**
   * Resolves on the next commit of a message in `roomId` of `place`; the returned cancel
   * removes the sleeper; `fired` says (at once) whether that commit came.
   */
  next(place: string, roomId: string): { promise: Promise<void>; cancel(): void; fired(): boolean } {
    const key = placeKey(place, roomId);
    let set = this.sleepers.get(key);
    if (!set) this.sleepers.set(key, (set = new Set()));
    let fired = false;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    const wake = () => {
      fired = true;
      resolve();
    };
    set.add(wake);
    const cancel = () => {
      set.delete(wake);
      if (set.size === 0 && this.sleepers.get(key) === set) this.sleepers.delete(key);
    };
    return { promise: promise.then(cancel), cancel, fired: () => fired };
  }

  /** When another app last said more of a burst was coming to `roomId` of `place` (Date.now()), or null. */
  moreAnnouncedAt(place: string, roomId: string): number | null {
    return this.announced.get(placeKey(place, roomId)) ?? null;
  }

  private noteAnnounced(key: string, more: boolean): void {
    if (!more) return void this.announced.delete(key);
    if (this.announced.size >= MAX_ANNOUNCED) this.announced.clear();
    this.announced.set(key, Date.now());
  }

  private raise(key: string): void {
    const set = this.sleepers.get(key);
    if (!set) return;
    this.sleepers.delete(key);
    for (const wake of set) wake();
  }

  close(): void {
    this.unsubscribe.forEach((off) => off());
  }
}
