// How a wake gathers what it brings (issue 18), shared by wait_for_messages and the channel
// push (issue 26): after a message that activates the agent, the rest of its burst may land
// first, so messages posted in quick succession cost the agent one turn, not several.
import type { RoomSignals } from './roomSignals';
import type { RoomRef } from './identity';

/** A burst: messages committed within this long of the wake that found the first one. */
export const BURST_MS = 50;
/** The burst is over once no commit has come for this long and no write that may bring messages is queued. */
const BURST_QUIET_MS = 10;

export type WakeEnd = 'commit' | 'timer' | 'ended';

/**
 * Waits for the rest of a burst (true when another message of the room committed meanwhile,
 * so the window is read again). It ends once no commit has come for BURST_QUIET_MS with no
 * write queued (a lone message waits no longer than that), and never later than BURST_MS,
 * the deadline, a cancel or a takeover. Event-driven, never polling.
 */
export async function gatherBurst(
  signals: RoomSignals,
  room: RoomRef,
  deadline: number,
  abort: AbortSignal,
  onFailure: (wake: () => void) => void,
): Promise<boolean> {
  const until = Math.min(Date.now() + BURST_MS, deadline);
  let more = false;
  for (;;) {
    const left = until - Date.now();
    if (left <= 0) return more;
    const quiet = room.storage.writing ? left : Math.min(BURST_QUIET_MS, left);
    const woke = await sleepOnRoom(signals.next(room.place, room.roomId), quiet, abort, onFailure);
    if (woke === 'commit') more = true;
    if (woke === 'ended' || (woke === 'timer' && !room.storage.writing)) return more;
  }
}

/** Sleeps until the room's next commit, the timer, a client cancel, or a takeover; says which ended it. */
export function sleepOnRoom(
  signal: { promise: Promise<void>; cancel(): void },
  ms: number,
  abort: AbortSignal,
  onFailure: (wake: () => void) => void,
): Promise<WakeEnd> {
  return new Promise((resolve) => {
    const done = (why: WakeEnd) => {
      clearTimeout(timer);
      abort.removeEventListener('abort', ended);
      signal.cancel();
      resolve(why);
    };
    const ended = () => done('ended');
    const timer = setTimeout(() => done('timer'), ms);
    abort.addEventListener('abort', ended, { once: true });
    onFailure(ended);
    void signal.promise.then(() => done('commit'));
  });
}
