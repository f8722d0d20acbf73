// A teammate writes numbers no app can count (issue 32 item 7): a room row whose message
// counter is 2^53 + 1, and in a shared room a session with a binding epoch of 2^60, a task and
// a person's request numbered past 2^53 and an attachment of 2^60 bytes. Two apps reach the
// team through a transaction-mode PgBouncer alone, so each polls for changes (as a team behind
// Supabase's pooler without its direct endpoint does). Every other room keeps working on the
// other machine: a mention still wakes its agent through the poll (not at the wait's time-out),
// and the reads over every room (the sidebar, search, Needs you, the agents) answer without the
// forged rows; each forged value is reported once in the log, not on every poll.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HelperClient } from '../../support';
import { runPostgresSuites, pgbouncerInstalled, inCi } from '../../support/postgres';
import { TEAM, type InProcessMachine } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { call, send } from '../../mcp/workerHandles/tools';
import { teamWorker as worker, twoMachinesPerTest, type TwoMachines } from './twoMachinesSetup';

const ROOM = 'counters';
const BEYOND_2_53 = '9007199254740993';
const EPOCH_2_60 = '1152921504606846976';

/** What the apps wrote to the log (both run in this process). */
let logged: string[] = [];
beforeEach(() => {
  logged = [];
  for (const level of ['warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
});
afterEach(() => vi.restoreAllMocks());
const linesAbout = (text: string) => logged.filter((line) => line.includes(text));

/** Alder on A and Birch on B in the shared room, a task, a question and an attachment of their own. */
async function sharedRoom(machines: TwoMachines) {
  const { a, b } = machines;
  const [onA, onB] = await Promise.all([a.connect(), b.connect()]);
  const alder = await worker(onA, ROOM, 'Alder', TEAM);
  const birch = await worker(onB, ROOM, 'Birch', TEAM);
  const zebra = await send(onA, { worker_id: alder.worker_id, text: 'the quarterly zebra report is ready' });
  expect(await call(onA, 'add_task', { worker_id: alder.worker_id, title: 'Count the zebras' })).toMatchObject({ success: true });
  expect(
    await call(onA, 'request_human_input', { worker_id: alder.worker_id, client_id: 'question-1', title: 'Which zebras?', body: 'All of them?', category: 'question' }),
  ).toMatchObject({ success: true });
  const number = Number(zebra.slice('msg_'.length));
  await machines.teamRows('INSERT INTO attachments VALUES ($1, $2, $3, $4, $5, $6, $7)', ROOM, number, 'att_ok', 'ok.txt', 'text/plain', 10, 'ok.txt');
  return { onA, onB, alder, birch, zebra };
}

/** The rows a teammate forges straight into the team database. */
async function forgeNumbers(machines: TwoMachines, zebra: string): Promise<void> {
  const now = new Date().toISOString();
  await machines.teamRows(
    `INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at, next_message_number) VALUES ('forged', 'named', 'Forged', $1, $1, $2)`,
    now,
    BEYOND_2_53,
  );
  await machines.teamRows(
    `INSERT INTO agent_sessions (session_id, room_id, session_kind, display_name, name_key, actor_label, agent_key, owner_label, ide_label, runtime,
       created_at, updated_at, last_seen_at, binding_epoch)
     VALUES ('local_forged', $1, 'worker', 'Mallory', 'mallory', 'Mallory | Eve''s agent | Agent', 'eve/forged', 'Eve', 'Agent', 'agent', $2, $2, $2, $3)`,
    ROOM,
    now,
    EPOCH_2_60,
  );
  // The role owns the tables, so it can lift a CHECK too.
  await machines.teamRows('ALTER TABLE tasks DROP CONSTRAINT tasks_number_check');
  await machines.teamRows(
    `INSERT INTO tasks (room_id, number, status, title, created_by, created_at, updated_at) VALUES ($1, $2, 'accepted', 'Forged task', 'Eve', $3, $3)`,
    ROOM,
    BEYOND_2_53,
    now,
  );
  await machines.teamRows(
    `INSERT INTO human_requests (room_id, number, client_id, category, title, body, requested_by, created_at, updated_at)
     VALUES ($1, $2, 'forged', 'question', 'Forged question', 'x', 'Eve', $3, $3)`,
    ROOM,
    BEYOND_2_53,
    now,
  );
  await machines.teamRows('INSERT INTO attachments VALUES ($1, $2, $3, $4, $5, $6, $7)', ROOM, Number(zebra.slice('msg_'.length)), 'att_big', 'big.bin', 'application/octet-stream', EPOCH_2_60, 'big.bin');
}

/** The reads over every room, as B's person and B's agent make them; each must answer. */
async function readEverything(b: InProcessMachine, onB: HelperClient, birchWorker: string, zebra: string) {
  const ok = async (method: Parameters<InProcessMachine['api']>[0], input: unknown) => {
    const result = await b.api(method, input as never);
    expect(result, `${method}: ${JSON.stringify(result)}`).toMatchObject({ ok: true });
    return (result as { value: unknown }).value as never;
  };
  const rooms: Array<{ id: string; place: string }> = await ok('rooms.list', {});
  const teamRooms = rooms.filter((r) => r.place === TEAM).map((r) => r.id);
  const search: { groups: Array<{ roomId: string; hits: Array<{ number: number }> }> } = await ok('messages.searchAll', { query: 'zebra' });
  const needsYou: { items: Array<{ title: string }> } = await ok('needsYou.list', {});
  const agents: Array<{ name: string }> = await ok('workers.list', {});
  const board: { tasks: Array<{ title: string }> } = await ok('tasks.board', { roomId: ROOM, place: TEAM });
  const read = await call(onB, 'read_messages', { worker_id: birchWorker });
  return {
    teamRooms,
    searched: search.groups.map((g) => ({ roomId: g.roomId, hits: g.hits.map((h) => `msg_${h.number}`) })),
    questions: needsYou.items.map((i) => i.title),
    agents: agents.map((x) => x.name).sort(),
    tasks: board.tasks.map((t) => t.title),
    attachments: (read.messages as Array<{ id: string; attachments: Array<{ id: string }> }>).find((m) => m.id === zebra)?.attachments.map((x) => x.id),
  };
}

describe.skipIf(!runPostgresSuites || (!pgbouncerInstalled && !inCi))('numbers a teammate forged past 2^53, with the apps polling', () => {
  const machines = twoMachinesPerTest({ polling: true });

  it("B's poll goes on: a mention sent on A wakes Birch's wait on B through the poll; the forged room is reported once", async () => {
    const { a, b } = machines;
    const { onA, onB, alder, birch, zebra } = await sharedRoom(machines);
    const storage = await b.app.teams.connections.storage(TEAM);
    expect(storage.wakeUps().mode).toBe('poll');
    const cursor = (await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, timeout: 1_000 })).last_observed_message_id;
    await forgeNumbers(machines, zebra);
    let woken: { messages: Array<{ id: string }> } | null = null;
    // The wait's own time-out is far beyond the condition below: only the poll can wake it in time.
    void call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 170_000 }).then((r) => (woken = r), () => undefined);
    const sent = await send(onA, { worker_id: alder.worker_id, text: '@Birch the counters still count' });
    await waitUntil(() => woken !== null, 20_000, "Birch's wait to wake through B's poll");
    expect(woken!.messages?.map((m) => m.id), JSON.stringify(woken)).toContain(sent);
    expect(linesAbout('polling for changes failed')).toEqual([]);

    // Many polls later, the forged room was still said once per app, never per poll.
    const after = storage.pollCounts().polls;
    await waitUntil(() => storage.pollCounts().polls >= after + 3, 15_000, 'three more polls');
    const reports = linesAbout('"forged"');
    expect(reports.length, logged.join('\n')).toBeGreaterThan(0);
    expect(reports.length, reports.join('\n')).toBeLessThanOrEqual(2);
    expect(reports[0]).toContain(BEYOND_2_53);
    await a.api('rooms.list', {});
  });

  it('search, the sidebar, Needs you, the agents, the board and a read of the shared room answer on B without the forged rows, each reported once', async () => {
    const { a, b } = machines;
    const { onB, birch, zebra } = await sharedRoom(machines);
    await forgeNumbers(machines, zebra);

    const seen = await readEverything(b, onB, birch.worker_id, zebra);
    expect(seen).toEqual({
      teamRooms: [ROOM],
      searched: [{ roomId: ROOM, hits: [zebra] }],
      questions: expect.arrayContaining(['Which zebras?']),
      agents: ['Alder', 'Birch'],
      tasks: ['Count the zebras'],
      attachments: ['att_ok'],
    });
    expect(seen.questions).not.toContain('Forged question');
    expect(linesAbout(EPOCH_2_60).length).toBeGreaterThan(0);
    expect(linesAbout(BEYOND_2_53).length).toBeGreaterThan(0);
    // Once both apps polled twice more (their polls meet the forged room too), reading it all again says nothing new.
    const storages = await Promise.all([a, b].map((m) => m.app.teams.connections.storage(TEAM)));
    const polls = storages.map((s) => s.pollCounts().polls);
    await waitUntil(() => storages.every((s, i) => s.pollCounts().polls >= polls[i] + 2), 15_000, 'two more polls of each app');
    const forgedLines = () => logged.filter((line) => line.includes(BEYOND_2_53) || line.includes(EPOCH_2_60));
    const reported = forgedLines().length;
    expect(await readEverything(b, onB, birch.worker_id, zebra)).toEqual(seen);
    await waitUntil(() => storages.every((s, i) => s.pollCounts().polls >= polls[i] + 4), 15_000, 'two polls more');
    expect(forgedLines().slice(reported)).toEqual([]);
  });

  it("a mention whose stored time is not a time starts B's 'Not picked up' timer from now, not at once", async () => {
    const { b } = machines;
    await sharedRoom(machines);
    expect(await b.api('settings.set', { delivery: { unansweredAfterSeconds: 600 } })).toMatchObject({ ok: true });
    const storage = await b.app.teams.connections.storage(TEAM);
    // Once B's polls have taken in the room's other changes, the forged row is a message hint of its own.
    const polls = storage.pollCounts().polls;
    await waitUntil(() => storage.pollCounts().polls >= polls + 2, 15_000, 'two polls of B');
    const hints = storage.pollCounts().messageHints;
    await machines.teamRows(
      `WITH n AS (UPDATE rooms SET next_message_number = next_message_number + 1 WHERE room_id = $1 RETURNING next_message_number - 1 AS number)
       INSERT INTO messages (room_id, number, kind, source, sender, text, created_at) SELECT $1, number, 'message', 'human', 'Eve', '@Birch are you there?', 'not a time' FROM n`,
      ROOM,
    );
    await waitUntil(() => storage.pollCounts().messageHints > hints, 15_000, "B's poll to pass the forged mention on");
    // B examines the mention as it arrives; a timer that fired at once would raise its item within moments.
    await new Promise((r) => setTimeout(r, 2_000));
    const items = (await b.api('needsYou.list', {})) as { ok: true; value: { items: Array<{ reason: string; from: string }> } };
    expect(items.value.items.filter((i) => i.reason === 'unanswered')).toEqual([]);
  });
});
