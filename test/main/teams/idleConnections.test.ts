// An idle app holds exactly one connection to a team (issue 29): its listener. Its heartbeat
// every 10 s (and the last-seen batch) is written on that connection, so the query pool,
// once its idle time has passed, stays closed through the heartbeats: watched in
// pg_stat_activity (the app's connections by their application_name) on a direct URL, and in
// PgBouncer's client list when queries go through a pooler and LISTEN goes direct (B16's setup).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inCi, pgbouncerInstalled, runPostgresSuites, startPgBouncer, startPostgres, type PgBouncer, type PgCluster } from '../../support/postgres';
import { inProcessMachine, TEAM, type InProcessMachine } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { withListenUrl } from '../../../src/main/store/postgres/teamUrl';
import { HEARTBEAT_EVERY_MS } from '../../../src/main/mcp/hub';

let cluster: PgCluster;
const machines: InProcessMachine[] = [];
const probes: pg.Client[] = [];

const withPoolIdle = (url: string, seconds: number) => {
  const u = new URL(url);
  u.searchParams.set('pool_idle_seconds', String(seconds));
  return u.toString();
};

async function probeOf(direct: string): Promise<pg.Client> {
  const probe = new pg.Client({ connectionString: direct, application_name: 'idle-connections-probe' });
  await probe.connect();
  probes.push(probe);
  return probe;
}

/** The app's connections to the database, as PostgreSQL sees them. */
async function appConnections(probe: pg.Client): Promise<number> {
  const { rows } = await probe.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'letagents-desktop'",
  );
  return Number(rows[0].n);
}

const heardAt = async (probe: pg.Client) => (await probe.query<{ heard_at: string }>('SELECT heard_at FROM app_hosts')).rows[0]?.heard_at ?? null;

/**
 * Starts an app on `url`, uses the team (its pool opens), waits until the pool's idle time has
 * passed, then watches `count` every 100 ms from before the next heartbeat until the pool's idle
 * time after it: resolves with the most it saw, and the app's own counts at the end.
 */
async function mostDuringAHeartbeat(url: string, probe: pg.Client, count: () => Promise<number>, poolIdleSeconds: number) {
  const machine = await inProcessMachine('A', url);
  machines.push(machine);
  const storage = await machine.app.teams.connections.storage(TEAM);
  await storage.ready();
  await storage.read((q) => q.get('SELECT 1 AS one'));
  await waitUntil(() => storage.connectionCounts().pool === 0, 5_000 + poolIdleSeconds * 1000, 'the pool emptied');
  await waitUntil(async () => (await heardAt(probe)) !== null, HEARTBEAT_EVERY_MS + 5_000, 'a first heartbeat');
  const before = await heardAt(probe);
  const giveUp = Date.now() + HEARTBEAT_EVERY_MS + 5_000;
  let most = 0;
  let beatSeen: number | null = null;
  for (;;) {
    most = Math.max(most, await count());
    if (beatSeen === null && (await heardAt(probe)) !== before) beatSeen = Date.now();
    if (beatSeen !== null && Date.now() - beatSeen > poolIdleSeconds * 1000 + 500) break;
    if (beatSeen === null && Date.now() > giveUp) throw new Error('no heartbeat was written while watching');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { most, counts: storage.connectionCounts() };
}

describe.skipIf(!runPostgresSuites)('an idle app and its team connections', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(machines.splice(0).map((m) => m.close()));
    await Promise.all(probes.splice(0).map((p) => p.end().catch(() => undefined)));
  });
  afterAll(() => cluster?.stop());

  it('a direct URL: through a heartbeat, PostgreSQL sees one connection of the app (its listener)', async () => {
    const direct = await cluster.createDatabase();
    const probe = await probeOf(direct);
    const { most, counts } = await mostDuringAHeartbeat(withPoolIdle(direct, 2), probe, () => appConnections(probe), 2);
    expect(most).toBe(1);
    expect(counts).toMatchObject({ listener: 1, pool: 0 });
    expect(await appConnections(probe)).toBe(1);
  }, 60_000);

  describe.skipIf(!pgbouncerInstalled && !inCi)('behind a transaction-mode PgBouncer, LISTEN direct', () => {
    let bouncer: PgBouncer;
    beforeAll(async () => {
      bouncer = await startPgBouncer(cluster);
    });
    afterAll(() => bouncer?.stop());

    it('through a heartbeat, the app is no client of the pooler and PostgreSQL sees its listener only', async () => {
      const direct = await cluster.createDatabase();
      const database = new URL(direct).pathname.slice(1);
      const probe = await probeOf(direct);
      const url = withListenUrl(withPoolIdle(bouncer.pooledUrl(direct), 2), direct);
      const pooled = async () => (await bouncer.show('CLIENTS')).filter((c) => c.database === database).length;
      const { most, counts } = await mostDuringAHeartbeat(url, probe, pooled, 2);
      expect(most).toBe(0);
      expect(counts).toMatchObject({ listener: 1, pool: 0, directListen: true });
    }, 60_000);
  });
});
