// Two machines of one team (issue 12, team-rooms.md §4–5): two app instances with separate
// data folders on one PostgreSQL database, each with real helper agents. Wake-ups cross
// machines, claims are decided by the database, a takeover on one machine fences the other
// at once, presence and "Needs you" are shared, and the team's faults (a server restart, an
// unreachable database) cost no restart and leave nothing half-written. In the "team rooms via
// PgBouncer" project the apps' queries go through a transaction-mode PgBouncer (the listener direct).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { cleanupSpawned } from '../../support';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../support/postgres';
import { inProcessMachine, servedMachine, TEAM, waitInFlight, type InProcessMachine } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { appTeamUrl } from '../../support/place';
import { call, hard, register, send, W13, W14 } from '../../mcp/workerHandles/tools';
import { teamRowsAt, teamWorker as worker, twoMachinesPerTest } from './twoMachinesSetup';

/** The agents B's roster shows in the room, as the app API gives them to the window. */
async function roster(machine: InProcessMachine, room: string) {
  const listed = await machine.api('workers.list', { roomId: room, place: TEAM });
  if (!listed.ok) throw new Error(JSON.stringify(listed));
  return listed.value as Array<{ name: string; online: boolean; machine: string | null; place: string; ended: boolean; reachability: string }>;
}

describe.skipIf(!runPostgresSuites)('two machines of one team', () => {
  const machines = twoMachinesPerTest();

  it('an agent on A @mentions one waiting on B: B\'s agent is woken with the message; each roster shows the other\'s agent and its machine', async () => {
    const { a, b } = machines;
    const [onA, onB] = await Promise.all([a.connect(), b.connect()]);
    const birch = await worker(onB, 'plan', 'Birch');
    const alder = await worker(onA, 'plan', 'Alder');
    const cursor = (await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, timeout: 1_000 })).last_observed_message_id;
    const waiting = call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 60_000 });
    await waitInFlight(b, birch.agent_session.session_id);
    const sent = await send(onA, { worker_id: alder.worker_id, text: '@Birch can you review the schema?' });
    const woken = await waiting;
    expect(woken.messages.map((m: { id: string }) => m.id)).toContain(sent);
    expect(woken.messages.at(-1)).toMatchObject({ id: sent, text: '@Birch can you review the schema?', activation: { for_current_agent: { reason: 'explicit_mention' } } });

    // B sees Alder (held by A) online, with A's machine; both see the room as the team's.
    // Whether Alder waits is known on A only: B says it is on another machine, not offline.
    const seenByB = await roster(b, 'plan');
    expect(seenByB.find((s) => s.name === 'Alder')).toMatchObject({ online: true, machine: hostname(), place: TEAM, reachability: 'elsewhere' });
    expect(seenByB.find((s) => s.name === 'Birch')).toMatchObject({ online: true, machine: hostname(), reachability: 'working' });
    expect((await roster(a, 'plan')).find((s) => s.name === 'Birch')).toMatchObject({ online: true, reachability: 'elsewhere' });
    const rooms = await b.api('rooms.list', {});
    expect(rooms.ok && rooms.value).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'plan', place: TEAM })]));
  });

  it('20 claim races on one task from both machines: exactly one winner each time', async () => {
    const { a, b, teamRows } = machines;
    const [onA, onB] = await Promise.all([a.connect(), b.connect()]);
    const alder = await worker(onA, 'races', 'Alder');
    const birch = await worker(onB, 'races', 'Birch');
    for (let i = 1; i <= 20; i++) {
      const added = await call(onA, 'add_task', { worker_id: alder.worker_id, title: `Race ${i}` });
      const accepted = await a.api('tasks.accept', { roomId: 'races', place: TEAM, number: Number(added.task.id.slice(5)) });
      expect(accepted.ok, JSON.stringify(accepted)).toBe(true);
      const taskId = added.task.id as string;
      const results = await Promise.all([
        call(onA, 'claim_task', { worker_id: alder.worker_id, task_id: taskId }),
        call(onB, 'claim_task', { worker_id: birch.worker_id, task_id: taskId }),
      ]);
      const winners = results.filter((r) => r.success === true);
      expect(winners, `race ${i}: ${JSON.stringify(results)}`).toHaveLength(1);
      const leases = await teamRows<{ n: string }>(
        "SELECT count(*) AS n FROM task_leases WHERE room_id = 'races' AND task_number = $1 AND kind = 'work' AND status = 'active'",
        Number(taskId.slice(5)),
      );
      expect(Number(leases[0].n), `race ${i}`).toBe(1);
    }
  });

  it('a takeover from B fails A\'s in-flight wait within 1 s; A\'s next write is refused and not stored', async () => {
    const { a, b, teamRows } = machines;
    const onA = await a.connect();
    const onB = await b.connect();
    const w = await worker(onA, 'handover', 'Willow');
    const cursor = (await call(onA, 'wait_for_messages', { worker_id: w.worker_id, timeout: 1_000 })).last_observed_message_id;
    let failedAt = 0;
    const waiting = call(onA, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: cursor, timeout: 60_000 }).then((r) => {
      failedAt = Date.now();
      return r;
    });
    await waitInFlight(a, w.agent_session.session_id);
    const takeover = await register(onB, { worker_id: w.worker_id, room_id: 'handover' });
    const takenAt = Date.now();
    expect(takeover.agent_session.session_id).toBe(w.agent_session.session_id);
    expect(await waiting).toEqual(hard(W14));
    expect(failedAt - takenAt).toBeLessThan(1_000);

    expect(await call(onA, 'send_message', { worker_id: w.worker_id, text: 'still mine?' })).toEqual(hard(W13));
    expect(await teamRows("SELECT number FROM messages WHERE text = 'still mine?'")).toEqual([]);
    await send(onB, { worker_id: w.worker_id, text: 'Willow works from B now' });
  });

  it('"Needs you" of a team room reaches the people of both machines; the first answer wins, the other hears who answered', async () => {
    const { a, b, teamRows } = machines;
    const onA = await a.connect();
    const w = await worker(onA, 'ask', 'Sage');
    const asked = await call(onA, 'request_human_input', { worker_id: w.worker_id, client_id: 'ask-both-0001', title: 'Which database?', body: 'Postgres or SQLite?', category: 'question' });
    expect(asked.success, JSON.stringify(asked)).toBe(true);
    const item = { kind: 'request', roomId: 'ask', place: TEAM, number: 1 } as const;
    const queue = async (machine: InProcessMachine) => {
      const list = await machine.api('needsYou.list', {});
      if (!list.ok) throw new Error(JSON.stringify(list));
      return (list.value as { items: Array<{ ref: unknown }> }).items.map((i) => i.ref);
    };
    for (const machine of [a, b]) expect(await queue(machine)).toContainEqual(item);
    expect(await a.api('needsYou.answer', { item, text: 'Postgres.' })).toMatchObject({ ok: true });
    const second = await b.api('needsYou.answer', { item, text: 'SQLite.' });
    expect(second).toEqual({ ok: false, error: { code: 'already_answered', message: expect.stringMatching(/^req_1 was already answered by .+@.+; your answer was not posted\.$/) } });
    expect(await queue(b)).not.toContainEqual(item);
    expect(await teamRows("SELECT text FROM messages WHERE text LIKE '%SQLite.%' AND source = 'human'")).toEqual([]);
  });

  it('PostgreSQL restarted mid-session: both machines recover by themselves, the agents\' next calls work, and a waiter gets what is sent after', async () => {
    const { a, b, cluster } = machines;
    const [onA, onB] = await Promise.all([a.connect(), b.connect()]);
    const alder = await worker(onA, 'restart', 'Alder');
    const birch = await worker(onB, 'restart', 'Birch');
    const cursor = (await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, timeout: 1_000 })).last_observed_message_id;
    const waiting = call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 60_000 });
    await cluster.restart();
    await waitUntil(() => a.app.places.state(TEAM).status === 'online' && b.app.places.state(TEAM).status === 'online', 15_000);
    const sent = await send(onA, { worker_id: alder.worker_id, text: '@Birch back after the restart' });
    const woken = await waiting;
    expect(woken.messages.map((m: { id: string }) => m.id)).toContain(sent);
    // Nothing to restart: B's agent answers, A's agent reads it.
    await send(onB, { worker_id: birch.worker_id, text: 'Got it' });
    expect((await call(onA, 'read_messages', { worker_id: alder.worker_id, limit: 5 })).messages.at(-1).text).toBe('Got it');
  });

  it('the team database unreachable: team_offline, nothing written, this computer\'s rooms keep working; back by itself', async () => {
    const { a, cluster, teamRows } = machines;
    const onA = await a.connect();
    const w = await worker(onA, 'outage', 'Rowan');
    await send(onA, { worker_id: w.worker_id, text: 'before the outage' });
    cluster.kill();
    try {
      await waitUntil(() => a.app.places.state(TEAM).status === 'offline', 15_000);
      const refused = await call(onA, 'send_message', { worker_id: w.worker_id, text: 'during the outage' });
      expect(refused).toMatchObject({ isError: true, text: expect.stringMatching(/The team "acme" is offline .*Nothing was written/) });
      const viaApi = await a.api('messages.send', { roomId: 'outage', place: TEAM, text: 'a person, during the outage' });
      expect(viaApi).toMatchObject({ ok: false, error: { code: 'team_offline' } });
      // This computer's rooms are unaffected.
      const local = await a.connect();
      expect(await call(local, 'join_room', { name: 'here', team: 'local' })).toMatchObject({ place: 'local', is_local: true });
      expect(await call(local, 'send_message', { text: 'local works' })).toMatchObject({ id: expect.stringMatching(/^msg_\d+$/), text: 'local works' });
    } finally {
      cluster.start();
    }
    await waitUntil(() => a.app.places.state(TEAM).status === 'online', 15_000);
    expect(await teamRows("SELECT text FROM messages WHERE room_id = 'outage' AND text LIKE '%during the outage%'")).toEqual([]);
    await send(onA, { worker_id: w.worker_id, text: 'after the outage' });
    // A remote database without TLS is refused before anything is stored.
    const plaintext = await a.api('teams.add', { name: 'remote', url: 'postgres://u:p@db.example.com:5432/x' });
    expect(plaintext).toMatchObject({ ok: false, error: { code: 'team_url_invalid', message: expect.stringMatching(/does not ask for TLS/) } });
  });

  it('an unknown team on create_room/join_room is a clear soft error naming the places', async () => {
    const { a } = machines;
    const onA = await a.connect();
    expect(await call(onA, 'create_room', { team: 'nope' })).toMatchObject({
      success: false,
      error: `"nope" is not a place: use "local" (this computer) or one of the teams "${TEAM}".`,
    });
    expect(await call(onA, 'create_room', { team: 'local' })).toMatchObject({ place: 'local' });
    expect(await call(onA, 'create_room', {})).toMatchObject({ place: TEAM });
  });
});

describe.skipIf(!runPostgresSuites)('a machine killed in a write burst', () => {
  let cluster: PgCluster;
  let b: InProcessMachine | undefined;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await cleanupSpawned();
    cluster?.stop();
  });

  it('SIGKILL during a burst: every acknowledged message is stored, numbered without gaps or duplicates; its agent shows offline once the app is silent', async () => {
    const url = await cluster.createDatabase();
    const teamRows = <T>(sql: string) => teamRowsAt<T>(url, sql);
    const killed = await servedMachine('A', await appTeamUrl(url, cluster));
    const survivor = await inProcessMachine('B', await appTeamUrl(url, cluster));
    b = survivor;
    const chats = await Promise.all([killed.connect(), killed.connect(), killed.connect()]);
    const workers = await Promise.all(chats.map((c, i) => worker(c, 'burst', `Burster${i}`)));
    const acknowledged: string[] = [];
    let stop = false;
    const bursts = chats.map(async (chat, i) => {
      for (let n = 0; !stop; n++) {
        const reply = await call(chat, 'send_message', { worker_id: workers[i].worker_id, text: `burst ${i}-${n}` }).catch(() => null);
        if (!reply || reply.isError) return;
        acknowledged.push(`burst ${i}-${n}`);
      }
    });
    await waitUntil(() => acknowledged.length >= 60, 30_000);
    expect((await roster(survivor, 'burst')).filter((s) => s.online)).toHaveLength(3);
    await killed.serve.kill();
    stop = true;
    await Promise.all(bursts);

    const stored = await teamRows<{ number: string; text: string }>("SELECT number, text FROM messages WHERE room_id = 'burst' ORDER BY number");
    const texts = new Set(stored.map((r) => r.text));
    for (const text of acknowledged) expect(texts.has(text), text).toBe(true);
    const numbers = stored.map((r) => Number(r.number));
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));

    // The killed app's agents stay online on B until that app has been silent for 30 s
    // (its heartbeat, as the team database shows it, is made 31 s old here instead of waiting).
    await teamRows("UPDATE app_hosts SET heard_at = to_char((now() - interval '31 seconds') AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') WHERE host_id IN (SELECT host_id FROM agent_sessions WHERE room_id = 'burst')");
    const after = await roster(survivor, 'burst');
    expect(after).toHaveLength(3);
    expect(after.every((s) => !s.online && !s.ended)).toBe(true);
  });
});
