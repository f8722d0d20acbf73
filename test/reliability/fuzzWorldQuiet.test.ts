// The hostile-input tests prove "a refused call changed nothing" by comparing the store before and
// after each call, so the world they fuzz must write nothing by itself while they run, however
// slowly they run (the API fuzz takes minutes at load 20). Its seeded reply (Bay to Ash's
// message) starts the app's "not picked up" timer; with the default limit of 2 minutes its
// "Needs you" item landed inside whatever call ran then (once a refused teams.add). The slow run
// is injected here: timers are faked and three minutes pass at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/main/delivery/deliverySettings';
import { cleanupSpawned } from '../support';
import { rawDbOf } from '../support/storage';
import { startFuzzWorld, type FuzzWorld } from './lib/fuzzWorld';

let world: FuzzWorld | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await world?.close();
  await cleanupSpawned();
});

describe('the fuzz world', () => {
  it('raises no "Needs you" item of its own during a run longer than the default delivery limit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    world = await startFuzzWorld();
    await vi.advanceTimersByTimeAsync(DEFAULT_LIMITS.unansweredAfterMs + 60_000);
    // Closing the alerts waits for an item being raised to be written.
    await world.app.deliveryAlerts.close();
    const raised = rawDbOf(world.app.core.store).prepare('SELECT kind, title FROM needs_you_alerts').all();
    expect(raised).toEqual([]);
  }, 60_000);
});
