// The time managed agents and automations go by: what time it is and one-shot timers. Tests
// inject a clock they move by hand (a schedule's next run, a usage limit's reset), so nothing
// waits for real time.

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fn` once after `delayMs`; returns the function that cancels it. */
  after(delayMs: number, fn: () => void): () => void;
}

/** Node's timers take at most 2^31 − 1 ms; a caller that waits longer re-arms when this fires. */
export const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  after(delayMs, fn) {
    const timer = setTimeout(fn, Math.max(0, Math.min(delayMs, MAX_TIMER_MS)));
    // A pending timer never keeps a closing process alive (the app's own servers do that).
    timer.unref();
    return () => clearTimeout(timer);
  },
};
