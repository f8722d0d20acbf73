// In-process signals raised after the commit of a new message in a room. Waits
// (wait_for_messages) sleep on them instead of polling the database.
import type { EventBus } from '../events/bus';

export class RoomSignals {
  private readonly sleepers = new Map<string, Set<() => void>>();
  private readonly unsubscribe: () => void;

  constructor(bus: EventBus) {
    this.unsubscribe = bus.on('message.created', (event) => this.raise(event.roomId));
  }

  /** Resolves on the next commit of a message in `roomId`; the returned cancel removes the sleeper. */
  next(roomId: string): { promise: Promise<void>; cancel(): void } {
    let set = this.sleepers.get(roomId);
    if (!set) this.sleepers.set(roomId, (set = new Set()));
    let wake!: () => void;
    const promise = new Promise<void>((resolve) => (wake = resolve));
    set.add(wake);
    const cancel = () => {
      set.delete(wake);
      if (set.size === 0) this.sleepers.delete(roomId);
    };
    return { promise: promise.then(cancel), cancel };
  }

  private raise(roomId: string): void {
    const set = this.sleepers.get(roomId);
    if (!set) return;
    this.sleepers.delete(roomId);
    for (const wake of set) wake();
  }

  close(): void {
    this.unsubscribe();
  }
}
