// Calls on their way to a write (issue 38): a tool call that may post to a room counts from the
// moment the app takes it until it ends, first with no room, then in the room it resolved. A
// woken wait asks whether more of a burst may be coming to its room (gather it) or nothing is
// (a lone message goes out at once, with no quiet window to wait out); a team's hint tells the
// other apps the same (changeHints.ts).

/** One call on its way. */
export interface IncomingWrite {
  /** The call resolved its room (again: the latest wins). */
  at(place: string, roomId: string): void;
  /** The call ended (idempotent). */
  end(): void;
}

const roomKey = (place: string, roomId: string) => `${place}\n${roomId}`;

export class IncomingWrites {
  /** Calls that have not resolved their room yet. */
  private unplacedCount = 0;
  private readonly byRoom = new Map<string, number>();
  private readonly listeners = new Set<() => void>();

  /** A call that may write has arrived. */
  begin(): IncomingWrite {
    this.unplacedCount++;
    let key: string | null = null;
    let ended = false;
    const leave = () => {
      if (key === null) this.unplacedCount--;
      else {
        const left = this.byRoom.get(key)! - 1;
        if (left === 0) this.byRoom.delete(key);
        else this.byRoom.set(key, left);
      }
    };
    return {
      at: (place, roomId) => {
        const next = roomKey(place, roomId);
        if (ended || next === key) return;
        leave();
        key = next;
        this.byRoom.set(key, (this.byRoom.get(key) ?? 0) + 1);
        this.changed();
      },
      end: () => {
        if (ended) return;
        ended = true;
        leave();
        this.changed();
      },
    };
  }

  /** Calls on their way whose room is not known yet. */
  get unplaced(): number {
    return this.unplacedCount;
  }

  /** Calls on their way to `roomId` of `place`. */
  pendingIn(place: string, roomId: string): number {
    return this.byRoom.get(roomKey(place, roomId)) ?? 0;
  }

  /** Resolves at the next change (a call placed or ended); cancel() drops the listener. */
  whenChanged(): { promise: Promise<void>; cancel(): void } {
    let listener!: () => void;
    const promise = new Promise<void>((resolve) => (listener = resolve));
    this.listeners.add(listener);
    return { promise, cancel: () => this.listeners.delete(listener) };
  }

  private changed(): void {
    if (this.listeners.size === 0) return;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }
}
