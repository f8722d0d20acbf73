// A team behind a transaction-mode pooler (issue 29): a real PgBouncer in front of the
// throwaway cluster. With the direct endpoint for LISTEN (listen_url) a send on one machine
// wakes a waiter on the other at once, and an idle app holds only its listener; with the
// pooled URL alone LISTEN is accepted but nothing arrives, which the app notices, says
// (team test, doctor, Settings) and covers with a bounded poll of what changed, so the waiter
// still wakes, and a poll of a quiet team returns nothing and wakes nobody.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type HelperClient } from '../../support';
import { inCi, pgbouncerInstalled, runPostgresSuites, startPgBouncer, startPostgres, type PgBouncer, type PgCluster } from '../../support/postgres';
import { inProcessMachine, TEAM, waitInFlight, type InProcessMachine } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { call, register, send } from '../../mcp/workerHandles/tools';
import { withListenUrl } from '../../../src/main/store/postgres/teamUrl';
import { probeTeam } from '../../../src/main/teams/teamProbe';
import { wakeUpWords } from '../../../src/main/diagnostics/teamChecks';

let cluster: PgCluster;
let bouncer: PgBouncer;
const machines: InProcessMachine[] = [];

const withParams = (url: string, params: Record<string, string>) => {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
};

async function worker(client: HelperClient, room: string, name: string) {
  const joined = await call(client, 'join_room', { name: room });
  expect(joined, JSON.stringify(joined)).toMatchObject({ place: TEAM, is_local: false });
  return register(client, { room_id: joined.room_id, registration_key: `${name}-${room}-${process.pid}-8c1d2e3f4a5b6c7d`, display_name: name });
}

/** Birch waits on B; Alder on A sends; resolves with what Birch's wait returned. */
async function wakeAcross(a: InProcessMachine, b: InProcessMachine, room: string) {
  const [onA, onB] = await Promise.all([a.connect(), b.connect()]);
  const birch = await worker(onB, room, 'Birch');
  const alder = await worker(onA, room, 'Alder');
  const cursor = (await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, timeout: 1_000 })).last_observed_message_id;
  const waiting = call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 60_000 });
  // Alder sends once Birch's wait is in flight on B, so the send is what wakes it (a fixed
  // 200 ms let a loaded machine send first, and the wait then found the message at once).
  await waitInFlight(b, birch.agent_session.session_id);
  const sent = await send(onA, { worker_id: alder.worker_id, text: '@Birch the pooler is in front now' });
  const woken = await waiting;
  expect(woken.messages.map((m: { id: string }) => m.id)).toContain(sent);
  return { onA, onB, alder, birch, cursor: woken.last_observed_message_id as string };
}

describe.skipIf(!runPostgresSuites || (!pgbouncerInstalled && !inCi))('a team behind a transaction-mode PgBouncer', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
    bouncer = await startPgBouncer(cluster);
  }, 60_000);
  afterEach(async () => {
    await Promise.all(machines.splice(0).map((m) => m.close()));
    await cleanupSpawned();
  });
  afterAll(() => {
    bouncer?.stop();
    cluster?.stop();
  });

  it('queries through the pooler, LISTEN direct: a waiter on B wakes on A\'s send; idle, each app holds only its listener', async () => {
    const direct = await cluster.createDatabase();
    const url = withListenUrl(withParams(bouncer.pooledUrl(direct), { pool_idle_seconds: '1' }), direct);
    const probe = await probeTeam(url);
    expect(probe.wakeUps).toEqual({ mode: 'listen', direct: true, pollSeconds: 5 });
    const [a, b] = await Promise.all([inProcessMachine('A', url), inProcessMachine('B', url)]);
    machines.push(a, b);
    await wakeAcross(a, b, 'pooled');

    const storages = await Promise.all([a, b].map((m) => m.app.teams.connections.storage(TEAM)));
    for (const storage of storages) expect(storage.wakeUps().mode).toBe('listen');
    // The queries went through PgBouncer: it served the apps' clients.
    const pools = await bouncer.show('POOLS');
    expect(pools.find((p) => p.database === new URL(direct).pathname.slice(1))).toBeTruthy();
    // Quiet for the pool's idle time: the pooled connections are closed, the listener stays.
    await waitUntil(() => storages.every((s) => s.connectionCounts().pool === 0), 15_000);
    for (const storage of storages) expect(storage.connectionCounts()).toMatchObject({ listener: 1, pool: 0, directListen: true });
    const clients = await bouncer.show('CLIENTS');
    expect(clients.filter((c) => c.database === new URL(direct).pathname.slice(1))).toEqual([]);
  });

  it('the pooled URL alone: LISTEN delivers nothing there, the app says so and polls; the waiter on B still wakes', async () => {
    const direct = await cluster.createDatabase();
    const url = withParams(bouncer.pooledUrl(direct), { poll_seconds: '1' });
    const probe = await probeTeam(url);
    expect(probe.wakeUps).toEqual({ mode: 'poll', direct: false, pollSeconds: 1 });
    expect(wakeUpWords(probe)).toEqual({
      polling: true,
      words: expect.stringContaining("LISTEN does not deliver on this endpoint (a transaction-mode pooler?): other machines' changes are polled every 1 s"),
    });
    expect(wakeUpWords(probe).words).toContain('each poll is one query on a pooled connection that stays open, returning only the rooms changed since the last poll');
    const [a, b] = await Promise.all([inProcessMachine('A', url), inProcessMachine('B', url)]);
    machines.push(a, b);
    const storage = await b.app.teams.connections.storage(TEAM);
    await storage.ready();
    expect(storage.wakeUps()).toEqual({ mode: 'poll', pollMs: 1_000 });
    const { onA, onB, alder, birch, cursor } = await wakeAcross(a, b, 'polled');

    // Birch waits again. Quiet polls return no row, wake nobody and make nobody read: B's
    // reads and the team-wide re-checks stand still while the polls go on.
    let rechecks = 0;
    const offRecheck = b.app.core.bus.on('place.reconnected', () => rechecks++);
    const readsBefore = storage.readCount;
    const waiting = call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 60_000 });
    let woke = false;
    void waiting.then(() => (woke = true), () => undefined);
    // Asleep once its look (it reads) is over: then a whole poll went by without a read of B's (the
    // call's hop from the helper, and the look's last reads, its @all turns, can outlast a poll).
    let reads = readsBefore;
    let polls = storage.pollCounts().polls;
    await waitUntil(() => {
      if (storage.readCount !== reads) [reads, polls] = [storage.readCount, storage.pollCounts().polls];
      return reads > readsBefore && storage.pollCounts().polls >= polls + 2;
    }, 10_000, "the wait's look to end (a whole poll without a read)");
    const before = { ...storage.pollCounts(), reads: storage.readCount };
    await waitUntil(() => storage.pollCounts().polls >= before.polls + 3, 10_000, 'three quiet polls');
    expect(storage.pollCounts()).toMatchObject({ rows: before.rows, messageHints: before.messageHints, rechecks: before.rechecks });
    expect(storage.readCount).toBe(before.reads);
    expect(rechecks).toBe(0);
    expect(woke).toBe(false);

    // A's next send is one changed room in the next poll: a message hint for that room, no team-wide re-check.
    const sent = await send(onA, { worker_id: alder.worker_id, text: '@Birch one more through the poll' });
    const woken = await waiting;
    expect(woken.messages.map((m: { id: string }) => m.id)).toContain(sent);
    expect(storage.pollCounts().rows - before.rows).toBe(1);
    expect(storage.pollCounts().messageHints).toBeGreaterThan(before.messageHints);
    expect(rechecks).toBe(0);

    // Another kind of change (a task A's agent adds) is one re-check of the team in a next poll.
    expect(await call(onA, 'add_task', { worker_id: alder.worker_id, title: 'Poll the pooler' })).toMatchObject({ success: true });
    await waitUntil(() => rechecks === 1, 10_000, 'a re-check after the task');
    offRecheck();
  });
});
