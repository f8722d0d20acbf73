// Drives a pending device authorization to its end for the app window: polls at GitHub's
// interval (slow_down included) until authorized, denied, expired, failed or cancelled.
import type { PollDeviceAuthOutcome } from './authResults';
import type { AuthService } from './authService';

export type WaitOutcome = PollDeviceAuthOutcome | { result: { success: false; status: 'cancelled' }; suggestedRoomId: null };

export interface WaitOptions {
  /** Aborting stops the wait (e.g. the window closed); the request itself stays pending. */
  signal?: AbortSignal;
  /** Waits `ms` or until `signal` aborts; tests pass one that moves their clock instead. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const CANCELLED: WaitOutcome = { result: { success: false, status: 'cancelled' }, suggestedRoomId: null };

function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export async function waitForDeviceAuth(auth: Pick<AuthService, 'pollDeviceAuth' | 'pendingSignal'>, options: WaitOptions = {}): Promise<WaitOutcome> {
  const sleep = options.sleep ?? realSleep;
  const requestSignal = auth.pendingSignal();
  if (!requestSignal) return auth.pollDeviceAuth();
  const stop = options.signal ? AbortSignal.any([requestSignal, options.signal]) : requestSignal;
  for (;;) {
    if (stop.aborted) return CANCELLED;
    const outcome = await auth.pollDeviceAuth();
    const { result } = outcome;
    const keepWaiting = result.success && 'status' in result && (result.status === 'pending' || result.status === 'slow_down');
    if (!keepWaiting) return requestSignal.aborted && !result.success && !('status' in result) ? CANCELLED : outcome;
    await sleep(result.interval * 1000, stop);
  }
}
