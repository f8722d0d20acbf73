// B16 (issue 29): fifty app instances × twenty agents on one team database. An instance is
// the part of the app core a team's scale rests on, in this process: its team storage (query
// pool, LISTEN connection, hint coalescer), its event bus and room signals (what
// wait_for_messages sleeps on) and its heartbeat every 10 s; its twenty agents are waiters on
// those signals, one in each of twenty rooms, so every room has twenty waiters on twenty
// instances. Not measured here: the agent processes and their MCP traffic (1,000 helper
// processes do not fit this machine; B10 measures one cross-machine wake end to end).
// Reports connections held at idle and under load, wake p99 from a send on one instance to
// the waiters on the others, and the database's CPU and writes per second at idle.
import pg from 'pg';
import { startPgBouncer, startPostgres } from '../../test/support/postgres';
import { withListenUrl } from '../../src/main/store/postgres/teamUrl';
import { EventBus } from '../../src/main/events/bus';
import { RoomSignals } from '../../src/main/mcp/roomSignals';
import { HEARTBEAT_EVERY_MS } from '../../src/main/mcp/hub';
import { heartbeat } from '../../src/main/domain/sessions/presence';
import { sendMessage } from '../../src/main/domain/messages/send';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { PostgresStorage } from '../../src/main/store/postgres/postgresStorage';
import type { Figure } from '../lib/figure';
import { cpuTicksOf } from '../lib/processes';
import { summarize } from '../lib/stats';

const INSTANCES = 50;
const AGENTS = 20;
const ROOMS = 50;
const SENDS = 300;
const SEND_EVERY_MS = 50;
const IDLE_WINDOW_MS = 30_000;
const PLACE = 'acme';

interface Instance {
  readonly storage: PostgresStorage;
  readonly signals: RoomSignals;
  readonly beat: NodeJS.Timeout;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const b16: Figure = {
  id: 'B16',
  what: '50 instances × 20 waiting agents on one team database: connections, cross-instance wake, idle cost',
  target: 'idle ≤ 1 connection per instance; wake p99 ≤ 100 ms at 1,000 waiting agents',
  async run(ctx) {
    const cluster = await startPostgres();
    const direct = await cluster.createDatabase();
    const bouncer = await startPgBouncer(cluster);
    const url = withListenUrl(bouncer.pooledUrl(direct), direct);
    const database = new URL(direct).pathname.slice(1);
    const probe = new pg.Client({ connectionString: direct });
    await probe.connect();
    const instances: Instance[] = [];
    try {
      // Started ten at a time, as machines come up over a morning.
      for (let i = 0; i < INSTANCES; i++) {
        if (i % 10 === 0) await Promise.all(instances.map((x) => x.storage.ready()));
        const bus = new EventBus();
        const storage = new PostgresStorage({ place: PLACE, url, bus });
        storage.onRemoteChange((event) => bus.publish(event));
        storage.onReconnect(() => bus.publish({ type: 'place.reconnected', place: PLACE }));
        const host = { id: `bench-host-${i}`, label: `machine ${i}` };
        const beat = setInterval(() => void storage.write((tx) => heartbeat(tx, host), { bookkeeping: true }).catch(() => undefined), HEARTBEAT_EVERY_MS);
        instances.push({ storage, signals: new RoomSignals(bus), beat });
      }
      await Promise.all(instances.map((x) => x.storage.ready()));
      await instances[0].storage.write(async (tx) => {
        for (let r = 0; r < ROOMS; r++) await ensureRoom(tx, { roomId: `room-${r}`, kind: 'named' });
      });
      ctx.log(`B16: ${INSTANCES} instances online`);

      // Each instance's agents: AGENTS waiters, in rooms i, i+1, … (mod ROOMS); re-armed after each wake.
      const wakes: number[] = [];
      const sentAt = new Map<string, number>();
      let waiting = 0;
      const arm = (inst: Instance, room: string) => {
        waiting++;
        const { promise } = inst.signals.next(PLACE, room);
        void promise.then(() => {
          waiting--;
          const at = sentAt.get(room);
          if (at !== undefined) wakes.push(performance.now() - at);
          // The woken agent reads its room once (one re-read per burst), then waits again.
          void inst.storage.read((q) => q.get('SELECT max(number) AS n FROM messages WHERE room_id = ?', room)).catch(() => undefined);
          arm(inst, room);
        });
      };
      instances.forEach((inst, i) => {
        for (let a = 0; a < AGENTS; a++) arm(inst, `room-${(i + a) % ROOMS}`);
      });
      ctx.log(`B16: ${waiting} agents waiting`);

      // Load: a message every 50 ms from a random instance into a random room.
      let peakConnections = 0;
      for (let s = 0; s < SENDS; s++) {
        const from = instances[Math.floor(Math.random() * INSTANCES)];
        const room = `room-${Math.floor(Math.random() * ROOMS)}`;
        sentAt.set(room, performance.now());
        await from.storage.write((tx) => sendMessage(tx, { roomId: room, author: { kind: 'person', label: 'Bench' }, text: `bench ${s}` }));
        if (s % 20 === 0) peakConnections = Math.max(peakConnections, await clientConnections(probe, database));
        await sleep(SEND_EVERY_MS);
      }
      await sleep(1_000);
      const underLoad = peakConnections;

      // Idle: the pools empty after their idle time; then a window of nothing but heartbeats.
      await sleep(12_000);
      const idleConnections = await clientConnections(probe, database);
      // What the instances hold, seen from outside: their direct connections at PostgreSQL (all
      // but PgBouncer's server connections, which the pooler shares and keeps) and their clients at PgBouncer.
      const ofDatabase = async (what: string) => (await bouncer.show(what)).filter((row) => row.database === database).length;
      const [bouncerServers, bouncerClients] = [await ofDatabase('SERVERS'), await ofDatabase('CLIENTS')];
      const instancesHold = idleConnections - bouncerServers + bouncerClients;
      const held = instances.reduce((n, x) => n + x.storage.connectionCounts().listener + x.storage.connectionCounts().pool, 0);
      const before = await databaseStats(probe, database);
      await sleep(IDLE_WINDOW_MS);
      const after = await databaseStats(probe, database);
      const seconds = IDLE_WINDOW_MS / 1000;
      const cpuPercent = ((after.cpuTicks - before.cpuTicks) / 100 / seconds) * 100;
      const writesPerSecond = (after.rowWrites - before.rowWrites) / seconds;
      const commitsPerSecond = (after.commits - before.commits - 2) / seconds;

      const w = summarize(wakes);
      const perInstance = instancesHold / INSTANCES;
      return {
        ours: { ...w, label: `wake: send on one instance → waiter on another (${waiting} waiting)`, unit: 'ms' },
        floor: null,
        ratio: null,
        met: perInstance <= 1 && w.p99 <= 100,
        notes: [
          `connections at idle: the ${INSTANCES} instances hold ${instancesHold} (${perInstance.toFixed(2)} each; ${instancesHold - bouncerClients} direct to PostgreSQL, ${bouncerClients} clients of PgBouncer; by their own count ${held}); PostgreSQL has ${idleConnections} (with PgBouncer's ${bouncerServers} idle server connections, shared, kept for its server_idle_timeout); under load: peak ${underLoad} at PostgreSQL`,
          `${SENDS} sends, one every ${SEND_EVERY_MS} ms; ${wakes.length} wakes; each woken agent re-reads its room once`,
          `database at idle (${seconds} s, heartbeats only): CPU ${cpuPercent.toFixed(1)} % of one core, ${writesPerSecond.toFixed(1)} row writes/s, ${commitsPerSecond.toFixed(1)} commits/s`,
          'instances are app cores in one process (storage, bus, room signals, heartbeat), not 50 processes with 1,000 helper processes',
        ],
      };
    } finally {
      for (const x of instances) clearInterval(x.beat);
      await Promise.all(instances.map((x) => x.storage.close().catch(() => undefined)));
      await probe.end().catch(() => undefined);
      bouncer.stop();
      cluster.stop();
    }
  },
};

/** Client connections to the team database, not counting the probe's own. */
async function clientConnections(probe: pg.Client, database: string): Promise<number> {
  const row = await probe.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
    [database],
  );
  return Number(row.rows[0].n);
}

/** The server's processes' CPU (ticks), and the database's commits and row writes so far. */
async function databaseStats(probe: pg.Client, database: string): Promise<{ cpuTicks: number; commits: number; rowWrites: number }> {
  const pids = (await probe.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid);
  let cpuTicks = 0;
  for (const pid of pids) cpuTicks += cpuTicksOf(pid) ?? 0;
  await probe.query('SELECT pg_stat_clear_snapshot()');
  const db = await probe.query<{ c: string; w: string }>(
    'SELECT xact_commit AS c, tup_inserted + tup_updated + tup_deleted AS w FROM pg_stat_database WHERE datname = $1',
    [database],
  );
  return { cpuTicks, commits: Number(db.rows[0].c), rowWrites: Number(db.rows[0].w) };
}
