import { describe, expect, it } from 'vitest';
import { waitForDeviceAuth } from '../../../src/main/auth/waitForDeviceAuth';
import { setUp, type Harness } from './harness';

/** A sleep that moves the test clock instead of waiting, and runs `during` on the given sleep. */
function clockSleep(h: Harness, during: Record<number, () => void> = {}) {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      during[waits.length]?.();
      h.advance(ms / 1000);
    },
  };
}

describe('waiting for GitHub sign-in in the app window', () => {
  it('polls at the interval, slows down when told, and ends signed in', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    const clock = clockSleep(h, { 1: () => h.github.slowDownOnce(), 3: () => h.github.approve() });
    const outcome = await waitForDeviceAuth(h.auth, { sleep: clock.sleep });
    expect(outcome.result).toMatchObject({ success: true, status: 'authorized', account: { login: 'ada' } });
    expect(clock.waits).toEqual([5000, 10000, 10000]);
    expect(h.github.requestsTo('/login/oauth/access_token')).toHaveLength(3);
  });

  it('stops with a clear state when the person denies', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    const clock = clockSleep(h, { 2: () => h.github.deny() });
    expect((await waitForDeviceAuth(h.auth, { sleep: clock.sleep })).result).toEqual({
      success: false,
      status: 'denied',
      error: 'The sign-in request was denied on GitHub.',
    });
  });

  it('stops on a network failure', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    const clock = clockSleep(h, { 1: () => void h.github.close() });
    const { result } = await waitForDeviceAuth(h.auth, { sleep: clock.sleep });
    expect(result).toMatchObject({ success: false, status: 'error', error: expect.stringMatching(/^GitHub could not be reached: /) });
  });

  it('stops at once when the person cancels', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    let sleeps = 0;
    const waiting = waitForDeviceAuth(h.auth, {
      // A real wait that only the cancel can end.
      sleep: (_ms, signal) =>
        new Promise<void>((resolve) => {
          sleeps++;
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
    await new Promise((resolve) => setImmediate(resolve));
    h.auth.cancel();
    expect((await waiting).result).toEqual({ success: false, status: 'cancelled' });
    expect(sleeps).toBe(1);
    expect(h.github.requestsTo('/login/oauth/access_token')).toHaveLength(0);
  });
});
