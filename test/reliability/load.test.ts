// Load (issue 9 §2): 50 agents, each through its own real helper process, send 200
// messages each and claim and move tasks concurrently in 3 rooms, while 20 more agents
// (20 more helpers) wait. Nothing is lost or duplicated, readers see per-room numbers
// strictly increasing with no gaps, every waiter wakes, and no task is ever in an
// impossible state. All traffic stays on 127.0.0.1 (the agent socket and /mcp).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, connectHelper, connectHttp, ensureCliBuilt, startServe, tempDir, type ServeHandle } from '../support';
import { BurstAgent, Ledger } from './lib/burstAgent';
import { consistencyProblems, integrityProblems, withAppDatabase } from './lib/dbChecks';
import { mustCall, registerWorker } from './lib/mcpCalls';
import { reliabilitySeed, seededRng, sleep } from './lib/random';
import { Waiter } from './lib/waiter';

const SEED = reliabilitySeed(0x5eed_0002);
const AGENTS = 50;
const MESSAGES_EACH = 200;
const WAITERS = 20;
const ROOMS = ['load-0', 'load-1', 'load-2'];

const clients: Client[] = [];
let serve: ServeHandle | undefined;
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await serve?.stop();
  await cleanupSpawned();
});

/** Connects `count` helpers, a few at a time (spawning 70 Node processes at once starves 2 cores). */
async function helpers(dataDir: string, count: number): Promise<Client[]> {
  const made: Client[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, () => connectHelper(dataDir, { cwd: tempDir(), clientName: 'codex' })),
    );
    made.push(...batch);
    clients.push(...batch);
  }
  return made;
}

interface ReadDoc {
  messages: Array<{ id: string }>;
}
interface BoardDoc {
  tasks: Array<{ id: string; status: string; assignee_agent_key: string | null; active_leases: Array<{ kind: string; agent_key: string }> }>;
}

/** What one reader sees while the load runs: a window of newest messages and the board, over and over. */
async function readWhileBusy(reader: Client, room: string, busy: () => boolean, problems: string[]): Promise<number> {
  let reads = 0;
  while (busy()) {
    const page = await mustCall(reader, 'read_messages', { room_id: room, limit: 60 });
    const numbers = (page as unknown as ReadDoc).messages.map((m) => Number(m.id.slice(4)));
    for (let i = 1; i < numbers.length; i++) {
      if (numbers[i] !== numbers[i - 1] + 1) problems.push(`${room}: reader saw msg_${numbers[i - 1]} then msg_${numbers[i]}`);
    }
    const board = (await mustCall(reader, 'get_board', { room_id: room, open_only: false })) as unknown as BoardDoc;
    for (const task of board.tasks) {
      const work = task.active_leases.filter((l) => l.kind === 'work');
      const held = ['assigned', 'in_progress', 'blocked', 'in_review'].includes(task.status);
      if (held ? work.length !== 1 || work[0].agent_key !== task.assignee_agent_key : work.length > 0 && task.status !== 'merged') {
        problems.push(`${room} ${task.id}: ${task.status} with work leases ${JSON.stringify(work)} and assignee ${task.assignee_agent_key}`);
      }
    }
    reads += 2;
    await sleep(100);
  }
  return reads;
}

describe('fifty agents writing at once while twenty wait', () => {
  it('loses, duplicates and reorders nothing, wakes every waiter and keeps every task consistent', async () => {
    await ensureCliBuilt();
    const rng = seededRng(SEED);
    serve = await startServe();
    const started = Date.now();
    const [agentClients, waiterClients] = [await helpers(serve.dataDir, AGENTS), await helpers(serve.dataDir, WAITERS)];
    for (const [i, room] of ROOMS.entries()) await mustCall(agentClients[i], 'join_room', { name: room });

    const waiters = await Promise.all(
      waiterClients.map(async (client, i) => {
        const name = `Waiter${String(i).padStart(2, '0')}`;
        const worker = await registerWorker(client, { room_id: ROOMS[i % 3], registration_key: `load-wait-${i}-4f7a9c2e81d6b035`, display_name: name });
        return new Waiter(name, client, worker.workerId);
      }),
    );
    await Promise.all(waiters.map((w) => w.takeCursor()));
    const setupSeconds = (Date.now() - started) / 1000;

    const ledger = new Ledger();
    const agents = agentClients.map(
      (client, i) =>
        new BurstAgent(`Load${String(i).padStart(2, '0')}`, client, ROOMS[i % 3], rng.fork(), ledger, { messageLimit: MESSAGES_EACH, prefix: 'load', maxBurst: 3, addTaskShare: 0.04, moveTaskShare: 0.12 }),
    );
    const loadStarted = Date.now();
    const waiting = waiters.map((w) => w.waitForMention(Date.now() + 150_000));
    const running = Promise.all(agents.map((agent) => agent.start()));
    let busy = true;
    void running.finally(() => (busy = false));

    const readerProblems: string[] = [];
    const readers = await Promise.all(ROOMS.map(() => connectHttp(serve!.mcpUrl, serve!.token)));
    clients.push(...readers);
    const reading = Promise.all(ROOMS.map((room, i) => readWhileBusy(readers[i], room, () => busy, readerProblems)));

    // Wake each waiter mid-load: an agent of its room mentions it.
    const wakeAt = new Map(waiters.map((w) => [w, rng.int(20, MESSAGES_EACH - 20)]));
    const wakes = waiters.map(async (waiter, i) => {
      const agent = agents.find((a) => a.room === ROOMS[i % 3])!;
      while (agent.sent < wakeAt.get(waiter)!) await sleep(20);
      await mustCall(agent.client, 'send_message', { worker_id: agent.workerId, text: `@${waiter.name} wake up` });
    });

    await running;
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    await Promise.all([...wakes, ...waiting]);
    const reads = (await reading).reduce((a, b) => a + b, 0);

    expect(ledger.unexpected).toEqual([]);
    expect(ledger.lost).toBe(0);
    expect(readerProblems).toEqual([]);
    expect(waiters.flatMap((w) => w.problems)).toEqual([]);
    expect(waiters.filter((w) => w.wokenBy === null).map((w) => w.name)).toEqual([]);

    // Every agent's 200 acknowledged messages are stored exactly once, where the app said.
    const stored = withAppDatabase(serve.dataDir, (db) => {
      const rows = db.prepare("SELECT room_id, number, text FROM messages WHERE text LIKE 'load|%'").all() as Array<{ room_id: string; number: number; text: string }>;
      return { rows, problems: [...integrityProblems(db), ...consistencyProblems(db)] };
    });
    expect(stored.problems).toEqual([]);
    const storedByText = new Map(stored.rows.map((r) => [r.text, `${r.room_id}#${r.number}`]));
    expect(stored.rows.length).toBe(AGENTS * MESSAGES_EACH);
    expect(storedByText.size).toBe(AGENTS * MESSAGES_EACH);
    expect(ledger.messages.size).toBe(AGENTS * MESSAGES_EACH);
    const misplaced = [...ledger.messages].filter(([key, ack]) => storedByText.get(ack.text) !== key);
    expect(misplaced).toEqual([]);

    const moves = ledger.taskChanges.filter((c) => c.to !== 'proposed').length;
    console.info(
      `load: ${AGENTS} helper agents × ${MESSAGES_EACH} messages = ${ledger.messages.size} messages written and verified in ${loadSeconds.toFixed(1)} s ` +
        `(setup of ${AGENTS + WAITERS} helpers ${setupSeconds.toFixed(1)} s); ${ledger.taskChanges.length - moves} tasks, ${moves} task moves; ` +
        `${WAITERS} waiters woken (${waiters.reduce((a, w) => a + w.wakes, 0)} deliveries); ${reads} reads checked (seed ${SEED})`,
    );
  }, 240_000);
});
