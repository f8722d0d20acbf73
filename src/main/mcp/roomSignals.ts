// In-process signals raised after the commit of a new message in a room, by this app or (a
// team's NOTIFY hint) another app of the team. Waits (wait_for_messages) sleep on them
// instead of polling the database. When a team's lost connection comes back, every room of
// that place is raised: a hint may have been missed, so each waiter reads again.
import type { EventBus } from '../events/bus';
import { placeKey } from '../domain/placeKeys';

export class RoomSignals {
  private readonly sleepers = new Map<string, Set<() => void>>();
  private readonly unsubscribe: Array<() => void>;

  constructor(bus: EventBus) {
    this.unsubscribe = [
      bus.on('message.created', (event) => this.raise(placeKey(event.place, event.roomId))),
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
