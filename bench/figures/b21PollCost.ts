// B21 (issue 32 item 14): what one app polling a team costs the database when a teammate forged
// 20,000 empty rooms. The app's team storage reaches the database through a transaction-mode
// PgBouncer alone (no direct endpoint), so LISTEN delivers nothing and it polls every 5 s (the
// default); for a minute, the CPU the database's backends of that team database spent (from
// /proc, sampled each second, per backend) is read in three 20 s windows, each scaled to a minute.
// The floor is the same app on a team without the forged rooms. Before the fix: 9.4 s a minute
// against 0.22 s (the run); the poll then computed a stamp of every room each time.
import pg from 'pg';
import { startPgBouncer, startPostgres, type PgBouncer, type PgCluster } from '../../test/support/postgres';
import { EventBus } from '../../src/main/events/bus';
import { PostgresStorage } from '../../src/main/store/postgres/postgresStorage';
import type { Figure } from '../lib/figure';
import { cpuTicksOf } from '../lib/processes';
import { summarize } from '../lib/stats';

const FORGED_ROOMS = 20_000;
const WINDOWS = 3;
const WINDOW_MS = 20_000;
const PLACE = 'acme';
/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU ticks so far of each backend serving `database`, the probe's own left out. */
async function backendTicks(probe: pg.Client, database: string): Promise<Map<number, number>> {
  const rows = (await probe.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])).rows;
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    const used = cpuTicksOf(pid);
    if (used !== null) ticks.set(pid, used);
  }
  return ticks;
}

/** Database CPU milliseconds a minute of one polling app, in each window; with `forged` rooms inserted first. */
async function pollCost(cluster: PgCluster, bouncer: PgBouncer, forged: number): Promise<number[]> {
  const direct = await cluster.createDatabase();
  const database = new URL(direct).pathname.slice(1);
  const storage = new PostgresStorage({ place: PLACE, url: bouncer.pooledUrl(direct), bus: new EventBus() });
  const probe = new pg.Client({ connectionString: direct });
  await probe.connect();
  try {
    await storage.ready();
    if (storage.wakeUps().mode !== 'poll') throw new Error('B21 needs an app that polls (LISTEN must not deliver through the pooler).');
    await probe.query(
      `INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at)
       SELECT 'forged-' || g, 'named', 'Forged', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM generate_series(1, $1::int) g`,
      [forged],
    );
    await probe.query('ANALYZE');
    // Let the app take in the new rooms (a poll or two) before measuring the steady state.
    const polls = storage.pollCounts().polls;
    while (storage.pollCounts().polls < polls + 2) await sleep(200);
    const perMinute: number[] = [];
    for (let w = 0; w < WINDOWS; w++) {
      const seen = new Map<number, { first: number; last: number }>();
      const start = await backendTicks(probe, database);
      for (const [pid, t] of start) seen.set(pid, { first: t, last: t });
      const end = Date.now() + WINDOW_MS;
      while (Date.now() < end) {
        await sleep(1_000);
        // A backend born in the window counts from zero; one that ends keeps its last reading.
        for (const [pid, t] of await backendTicks(probe, database)) seen.set(pid, { first: seen.get(pid)?.first ?? 0, last: t });
      }
      const ticks = [...seen.values()].reduce((sum, s) => sum + (s.last - s.first), 0);
      perMinute.push(((ticks * 1000) / TICKS_PER_SECOND) * (60_000 / WINDOW_MS));
    }
    return perMinute;
  } finally {
    await probe.end();
    await storage.close();
  }
}

export const b21: Figure = {
  id: 'B21',
  what: 'database CPU a minute of one app polling a team (through PgBouncer, every 5 s) with 20,000 forged empty rooms',
  target: 'within 2× a team without them, and under 1 s a minute (issue 32: 9.4 s against 0.22 s before)',
  async run(ctx) {
    const cluster = await startPostgres();
    const bouncer = await startPgBouncer(cluster);
    try {
      const forged = await pollCost(cluster, bouncer, FORGED_ROOMS);
      ctx.log(`B21: with ${FORGED_ROOMS} forged rooms: ${forged.join(', ')} ms a minute`);
      const quiet = await pollCost(cluster, bouncer, 0);
      ctx.log(`B21: without: ${quiet.join(', ')} ms a minute`);
      const o = summarize(forged);
      const f = summarize(quiet);
      // Ticks are 10 ms: a floor of 0 reads as one tick a window, so the ratio stays finite.
      const tick = ((1000 / TICKS_PER_SECOND) * 60_000) / WINDOW_MS;
      const ratio = o.mean / Math.max(f.mean, tick);
      return {
        ours: { ...o, label: `database CPU a minute, ${FORGED_ROOMS} forged rooms, 20 s windows scaled to a minute`, unit: 'ms/min' },
        floor: { ...f, label: 'the same app on a team without them', unit: 'ms/min' },
        ratio,
        met: ratio <= 2 && o.mean < 1_000,
        notes: [`CPU of the team database's backends from /proc (10 ms ticks: 30 ms a minute per tick), sampled each second; the poll statement's plan is checked in test/main/teams/pollCost.test.ts`],
      };
    } finally {
      bouncer.stop();
      cluster.stop();
    }
  },
};
