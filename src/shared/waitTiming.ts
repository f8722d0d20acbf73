// wait_for_messages' timing, shared by the app's tool and the stdio helper (which holds a wait
// itself while the app is away): the bounds of its `timeout` and how often it sends progress.

/** Progress every 10 s to a client that sent a progress token (tests of long waits shorten it in the app). */
export const WAIT_PROGRESS_EVERY_MS = 10_000;

/** The wait's length in milliseconds: `timeout` within 1 000–180 000, 30 000 when not given. */
export function clampWaitTimeout(timeout: unknown): number {
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0) return 30_000;
  return Math.min(Math.max(timeout, 1_000), 180_000);
}
