// Presence at scale (issue 29): agents' "last seen" in a team database (shared by fifty apps)
// is written at most once a minute per agent, however busy they are, while this computer's
// rooms keep the 5-second batches; nothing touched is lost on close. The store is a real
// SQLite file standing in for the team's database (the tracker decides by place, not engine).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../../src/main/events/bus';
import { LastSeenTracker, TEAM_LAST_SEEN_EVERY_MS } from '../../../src/main/mcp/lastSeen';
import type { Places } from '../../../src/main/store/places';
import type { Storage, Tx } from '../../../src/main/store/port';
import { SqliteStorage } from '../../../src/main/store/sqlite/sqliteStorage';

let store: SqliteStorage;
let updates: Map<string, number>;

/** The places: 'local' and the team 'acme', both this real store; counts last-seen updates per place. */
function places(): Places {
  const counted = (place: string): Storage =>
    ({
      write: <T>(fn: (tx: Tx) => Promise<T>) =>
        store.write((tx) => {
          const run: Tx['run'] = (sql, ...params) => {
            if (sql.includes('last_seen_at')) updates.set(place, (updates.get(place) ?? 0) + 1);
            return tx.run(sql, ...params);
          };
          return fn(Object.assign(Object.create(tx) as Tx, { run }));
        }),
    }) as unknown as Storage;
  return { get: async (place: string) => counted(place) } as unknown as Places;
}

describe('last seen at scale', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    store = new SqliteStorage({ path: ':memory:', bus: new EventBus() });
    updates = new Map();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await store.close();
  });

  it('1,000 agents busy for five minutes in a team: each written once a minute (≤ 17 rows a second), local ones every flush', async () => {
    const tracker = new LastSeenTracker(places());
    const start = Date.now();
    // A flush every 5 s for 5 minutes; every agent makes a call between two flushes.
    for (let t = 0; t < 5 * 60_000; t += 5_000) {
      vi.setSystemTime(start + t);
      for (let i = 0; i < 1_000; i++) tracker.touch('acme', `s${i}`);
      for (let i = 0; i < 10; i++) tracker.touch('local', `l${i}`);
      await tracker.flush();
    }
    const teamRows = updates.get('acme')!;
    expect(teamRows).toBe(1_000 * 5); // once a minute each, over five minutes
    expect(teamRows / 300).toBeLessThanOrEqual(1_000 / (TEAM_LAST_SEEN_EVERY_MS / 1000));
    expect(updates.get('local')).toBe(10 * 60);
    // Touched since their last write: written on close, not lost.
    vi.setSystemTime(start + 5 * 60_000);
    await tracker.close();
    expect(updates.get('acme')).toBe(teamRows + 1_000);
  });
});
