// How a wake gathers what it brings (issue 18), shared by wait_for_messages and the channel
// push (issue 26): after a message that activates the agent, the rest of its burst may land
// first, so messages posted in quick succession cost the agent one turn, not several. A lone
// message waits for nothing (issue 38): when no call is on its way to the room (or still
// finding its room), no write of the place is queued and no other app of a team said more is
// coming, the wake goes out at once.
import type { EventBus } from '../events/bus';
import type { RoomSignals } from './roomSignals';
import type { RoomRef } from './identity';

/** A burst: messages committed within this long of the wake that found the first one. */
export const BURST_MS = 50;
/** Calls still finding their room, or a queued write of the place, hold a burst open this long without a commit at most. */
const BURST_QUIET_MS = 10;

export type WakeEnd = 'commit' | 'timer' | 'ended' | 'changed';

/**
 * Waits for the rest of a burst (true when another message of the room committed meanwhile,
 * so the window is read again). It returns at once when nothing is on its way. It waits while
 * a call is on its way to the room or another app announced more; while calls are still
 * finding their room or a write of the place is queued, for at most BURST_QUIET_MS without a
 * commit; never later than BURST_MS, the deadline, a cancel or a takeover. Event-driven,
 * never polling.
 */
export async function gatherBurst(
  signals: RoomSignals,
  bus: EventBus,
  room: RoomRef,
  deadline: number,
  abort: AbortSignal,
  onFailure: (wake: () => void) => void,
): Promise<boolean> {
  const until = Math.min(Date.now() + BURST_MS, deadline);
  const { incoming } = bus;
  // Lines the app has already received are dispatched first: a call that came with the message
  // counts, and what committed meanwhile is part of the burst.
  const meanwhile = signals.next(room.place, room.roomId);
  await afterPendingInput();
  meanwhile.cancel();
  let more = meanwhile.fired();
  let quietSince = Date.now();
  for (;;) {
    const now = Date.now();
    const left = until - now;
    if (left <= 0 || abort.aborted) return more;
    const announcedAt = signals.moreAnnouncedAt(room.place, room.roomId);
    // Coming: a call of this app is on its way to the room, or another app said more is coming.
    const coming = incoming.pendingIn(room.place, room.roomId) > 0 || (announcedAt !== null && now - announcedAt < BURST_MS);
    // Maybe: a call has not found its room yet, or a write of the place (a person's, another room's) is queued.
    const maybe = incoming.unplaced > 0 || room.storage.writing;
    const quietLeft = quietSince + BURST_QUIET_MS - now;
    if (!coming && (!maybe || quietLeft <= 0)) return more;
    const signal = signals.next(room.place, room.roomId);
    const woke = await sleepOnRoom(signal, coming ? left : Math.min(quietLeft, left), abort, onFailure, incoming.whenChanged());
    // A call's commit and its end come together: whichever woke the sleep, the commit counts.
    if (woke === 'commit' || signal.fired()) {
      more = true;
      quietSince = Date.now();
    }
    if (woke === 'ended') return more;
  }
}

/**
 * Resolves after the event loop has polled for input once more: a line already in a socket's
 * buffer is read and its call started. Two setImmediate hops: the first runs after the current
 * poll phase, the second after the next one.
 */
function afterPendingInput(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Sleeps until the room's next commit, the timer, a client cancel, a takeover or (with
 * `changed`) a change among the calls on their way; says which ended it.
 */
export function sleepOnRoom(
  signal: { promise: Promise<void>; cancel(): void },
  ms: number,
  abort: AbortSignal,
  onFailure: (wake: () => void) => void,
  changed?: { promise: Promise<void>; cancel(): void },
): Promise<WakeEnd> {
  return new Promise((resolve) => {
    const done = (why: WakeEnd) => {
      clearTimeout(timer);
      abort.removeEventListener('abort', ended);
      signal.cancel();
      changed?.cancel();
      resolve(why);
    };
    const ended = () => done('ended');
    const timer = setTimeout(() => done('timer'), ms);
    abort.addEventListener('abort', ended, { once: true });
    onFailure(ended);
    void signal.promise.then(() => done('commit'));
    void changed?.promise.then(() => done('changed'));
  });
}
