// Other apps' NOTIFY hints, coalesced per room before anything reads the database for them.
// A burst (one busy room, or a member's flood of forged hints) becomes at most one hint per
// room and key (a message, a task, a session's receipts or presence …) per flush, so the app
// re-reads once per burst. Everything held is bounded: a room holds a few keys, a flush a
// few hundred hints; what does not fit is counted and replaced by one "re-check this team"
// signal (the same as after a lost connection). While hints keep pouring in, flushes space
// out (up to once a second), so a flood costs a bounded amount of work per second however
// fast it arrives; in ordinary traffic a hint is passed on within the same turn of the loop.
import type { RoomEventBody } from '../../events/types';
import type { ChangeHint } from '../port';

export interface HintCoalescerOptions {
  /** Hints held between two flushes (all rooms); more are dropped and `overflow` runs. */
  maxHeld?: number;
  /** Distinct keys per room between two flushes (message numbers count one each). */
  maxKeysPerRoom?: number;
  /** The longest pause between flushes while hints keep coming. */
  maxDelayMs?: number;
}

/** What the coalescer has seen: the counters `doctor`, tests and benchmarks read. */
export interface HintCounts {
  received: number;
  delivered: number;
  /** Merged into a hint already held (the same room and key). */
  merged: number;
  /** Did not fit (too many rooms or keys); an overflow signal stood in for them. */
  dropped: number;
  overflows: number;
  /** The most hints ever held at once (bounded by maxHeld). */
  peakHeld: number;
}

/** More hints than this between two flushes is a burst: the next flush waits longer. */
const BUSY_FLUSH = 64;

export class HintCoalescer {
  private rooms = new Map<string, Map<string, ChangeHint>>();
  private held = 0;
  private overflowed = false;
  /** The next flush: on the loop's next turn in ordinary traffic, or a timer while a burst spaces flushes out. */
  private timer: { cancel(): void } | null = null;
  private delayMs = 0;
  /** `counts.received` at the last flush. */
  private lastReceived = 0;
  private closed = false;
  readonly counts: HintCounts = { received: 0, delivered: 0, merged: 0, dropped: 0, overflows: 0, peakHeld: 0 };
  private readonly maxHeld: number;
  private readonly maxKeys: number;
  private readonly maxDelayMs: number;

  constructor(
    private readonly deliver: (hint: ChangeHint) => void,
    /** Hints were dropped: everything of the team must be re-checked. */
    private readonly overflow: () => void,
    options: HintCoalescerOptions = {},
  ) {
    this.maxHeld = options.maxHeld ?? 64;
    this.maxKeys = options.maxKeysPerRoom ?? 16;
    this.maxDelayMs = options.maxDelayMs ?? 1_000;
  }

  /** Hints held now (bounded). */
  get size(): number {
    return this.held;
  }

  /**
   * Takes a hint's payload; `parse` runs only when the hint can still matter: after an overflow,
   * until the flush, everything of the team will be re-checked anyway, so the rest is counted unread.
   */
  addPayload(payload: string, parse: (payload: string) => ChangeHint | null): void {
    if (this.closed) return;
    if (this.overflowed) {
      this.counts.received++;
      this.counts.dropped++;
      return;
    }
    const hint = parse(payload);
    if (hint) this.add(hint);
  }

  add(hint: ChangeHint): void {
    if (this.closed) return;
    this.counts.received++;
    const room = this.rooms.get(hint.roomId);
    const key = hintKey(hint);
    const held = room?.get(key);
    if (room && held) {
      room.set(key, mergedHint(held, hint));
      this.counts.merged++;
    } else {
      if (this.held >= this.maxHeld || (room?.size ?? 0) >= this.maxKeys) return this.drop();
      if (room) room.set(key, hint);
      else this.rooms.set(hint.roomId, new Map([[key, hint]]));
      this.counts.peakHeld = Math.max(this.counts.peakHeld, ++this.held);
    }
    this.schedule();
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    this.rooms.clear();
    this.held = 0;
  }

  private drop(): void {
    this.counts.dropped++;
    this.overflowed = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    // setTimeout(0) would wait a whole millisecond: a lone hint goes out on the loop's next turn.
    if (this.delayMs === 0) {
      const immediate = setImmediate(() => this.flush());
      this.timer = { cancel: () => clearImmediate(immediate) };
      return;
    }
    const timeout = setTimeout(() => this.flush(), this.delayMs);
    timeout.unref?.();
    this.timer = { cancel: () => clearTimeout(timeout) };
  }

  private flush(): void {
    this.timer = null;
    const rooms = this.rooms;
    const received = this.counts.received;
    const burst = received - this.lastReceived;
    this.lastReceived = received;
    this.rooms = new Map();
    this.held = 0;
    const overflowed = this.overflowed;
    this.overflowed = false;
    for (const room of rooms.values()) {
      for (const hint of room.values()) {
        this.counts.delivered++;
        this.deliver(hint);
      }
    }
    if (overflowed) {
      this.counts.overflows++;
      this.overflow();
    }
    // A busy flush (many hints since the last one) spaces the next one out; a quiet one resets.
    const busy = burst > BUSY_FLUSH || overflowed;
    this.delayMs = busy ? Math.min(this.maxDelayMs, Math.max(10, this.delayMs * 2)) : 0;
  }
}

/** What a hint is about within its room: two hints of a room with the same key merge (mergedHint). */
export function hintKey(hint: RoomEventBody): string {
  switch (hint.type) {
    case 'message.created':
    case 'task.changed':
      return `${hint.type}\n${hint.number}`;
    case 'worker.changed':
    case 'message.receipts':
      return `${hint.type}\n${hint.sessionId}`;
    case 'room.changed':
      return `${hint.type}\n${hint.change}`;
    default:
      return hint.type;
  }
}

/** Two hints of one room and key as one: the newer wins, a receipts range widens, the higher binding epoch stays. */
export function mergedHint<T extends RoomEventBody>(held: T, next: T): T {
  if (held.type === 'message.receipts' && next.type === 'message.receipts') {
    const turn = held.turn ?? next.turn;
    return { ...next, first: Math.min(held.first, next.first), last: Math.max(held.last, next.last), ...(turn ? { turn } : {}) };
  }
  // A session's binding epoch only grows: the hint with the higher one is kept (the hub fences on it).
  if (held.type === 'worker.changed' && next.type === 'worker.changed' && (held.epoch ?? -1) > (next.epoch ?? -1)) return held;
  return next;
}
