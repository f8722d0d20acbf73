// What wait_for_messages tells the client while and after it waits: notifications/progress
// every 10 s for a client that sent a progress token (so a client that resets its request
// timeout on progress can wait longer than its timeout), and a log note naming what woke it.
import type { ToolCallContext } from '../toolKit';

/** The real interval; tests of long waits shorten it through McpServices.waitProgressMs. */
export { WAIT_PROGRESS_EVERY_MS } from '../../../shared/waitTiming';

/**
 * Starts the progress ticks of one wait of `waitMs`; returns the function that stops them.
 * `progress` is the elapsed milliseconds (it grows with every tick), `total` the wait.
 */
export function startWaitProgress(call: ToolCallContext, waitMs: number, everyMs: number, now: () => number = Date.now): () => void {
  const token = call.progressToken;
  if (token === undefined) return () => undefined;
  const started = now();
  const timer = setInterval(() => {
    const elapsed = now() - started;
    const message = `waited ${Math.round(elapsed / 1000)} s of ${Math.round(waitMs / 1000)} s`;
    void call.notify({ method: 'notifications/progress', params: { progressToken: token, progress: elapsed, total: waitMs, message } }).catch(() => undefined);
  }, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Logs why the wait returned ("woke on msg_12" or "no new message for you"), then passes the result on. */
export function noteWake<T extends { messages: ReadonlyArray<{ id: string }>; room_id: string }>(call: ToolCallContext, result: T): T {
  const first = result.messages[0];
  if (first) {
    const count = result.messages.length;
    call.log('info', `woke on ${first.id} in ${result.room_id}${count > 1 ? ` (+${count - 1} more)` : ''}`);
  } else {
    call.log('debug', `no new message for you in ${result.room_id}`);
  }
  return result;
}
