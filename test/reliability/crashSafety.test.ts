// Crash safety (issue 9 §1, architecture.md §6): agents write in bursts through real
// helpers while `serve` is killed with SIGKILL at seeded random moments. After every
// kill the database opens cleanly, every acknowledged write is stored, nothing
// half-written is visible, and numbering continues without reusing a number.
import { afterAll, describe, expect, it } from 'vitest';
import {
  cleanupSpawned, connectHelper, ensureCliBuilt, isAlive, startServe, tempDataDir, tempDir, waitUntil, whileStopped, type HelperClient, type ServeHandle,
} from '../support';
import { BurstAgent, Ledger } from './lib/burstAgent';
import { consistencyProblems, integrityProblems, withAppDatabase, type Db } from './lib/dbChecks';
import { reliabilitySeed, seededRng, sleep } from './lib/random';
import { mustCall } from './lib/mcpCalls';

const SEED = reliabilitySeed(0x5eed_0001);
const KILLS = 22;
const ROOMS = ['crash-a', 'crash-b'];
const AGENT_NAMES = ['Alder', 'Birch', 'Cedar', 'Dune'];

const helpers: HelperClient[] = [];
afterAll(async () => {
  await Promise.all(helpers.map((h) => h.close().catch(() => undefined)));
  await cleanupSpawned();
});

/** Every acknowledged write that the store does not hold as acknowledged. */
function missingWrites(db: Db, ledger: Ledger): string[] {
  const problems: string[] = [];
  const messageAt = db.prepare('SELECT text, sender, source FROM messages WHERE room_id = ? AND number = ?');
  for (const ack of ledger.messages.values()) {
    const row = messageAt.get(ack.room, ack.number) as { text: string; sender: string; source: string } | undefined;
    if (!row || row.text !== ack.text || row.sender !== ack.sender || row.source !== 'agent') {
      problems.push(`${ack.room} msg_${ack.number}: acknowledged "${ack.text}", stored ${JSON.stringify(row ?? null)}`);
    }
  }
  const taskTitle = db.prepare('SELECT title FROM tasks WHERE room_id = ? AND number = ?');
  const moved = db.prepare('SELECT 1 FROM task_events WHERE room_id = ? AND task_number = ? AND to_status = ?');
  for (const change of ledger.taskChanges) {
    if (change.title !== undefined && (taskTitle.get(change.room, change.number) as { title: string } | undefined)?.title !== change.title) {
      problems.push(`${change.room} task_${change.number}: acknowledged as created, not stored`);
    }
    if (!moved.get(change.room, change.number, change.to)) problems.push(`${change.room} task_${change.number}: acknowledged move to ${change.to} not stored`);
  }
  return problems;
}

/** Messages sent after kill k must take numbers at or above what the store held at that kill. */
function reusedNumbers(ledger: Ledger, nextAtKill: Array<Map<string, number>>): string[] {
  const problems: string[] = [];
  for (const ack of ledger.messages.values()) {
    if (ack.generation === 0) continue;
    const floor = nextAtKill[ack.generation - 1].get(ack.room)!;
    if (ack.number < floor) problems.push(`${ack.room} msg_${ack.number} ("${ack.text}") was sent after kill ${ack.generation} but reuses a number below ${floor}`);
  }
  return problems;
}

describe('an app killed with SIGKILL while agents write', () => {
  it(`loses nothing acknowledged and shows nothing half-written across ${KILLS} kills (seed ${SEED})`, async () => {
    await ensureCliBuilt();
    const rng = seededRng(SEED);
    const dataDir = tempDataDir();
    let serve: ServeHandle = await startServe({ dataDir });
    const ledger = new Ledger();
    const agents: BurstAgent[] = [];
    for (const [i, name] of AGENT_NAMES.entries()) {
      const client = await connectHelper(dataDir, { cwd: tempDir(), clientName: 'claude-code' });
      helpers.push(client);
      if (i < ROOMS.length) await mustCall(client, 'join_room', { name: ROOMS[i] });
      agents.push(new BurstAgent(name, client, ROOMS[i % ROOMS.length], rng.fork(), ledger));
    }
    agents.forEach((agent) => agent.start());

    const nextAtKill: Array<Map<string, number>> = [];
    const started = Date.now();
    for (let kill = 1; kill <= KILLS; kill++) {
      // Kill only once every agent is writing to this app run, at a random moment after that.
      await waitUntil(() => agents.every((a) => a.ackedSinceStart > 0), 20_000, `agents writing after restart ${kill - 1}`);
      await sleep(rng.int(20, 500));
      await serve.kill();
      ledger.generation = kill;
      // The helpers are held while the test checks the database and starts the app again: a
      // helper that finds the app gone for 3 s starts it itself (appLink.ts), and on a loaded
      // machine that could come first, so the test's start would find it already running.
      const check = await whileStopped(helpers.map((h) => h.helperPid!), async () => {
        const found = withAppDatabase(dataDir, (db) => {
          const next = new Map((db.prepare('SELECT room_id, next_message_number FROM rooms').all() as Array<{ room_id: string; next_message_number: number }>)
            .map((r) => [r.room_id, r.next_message_number]));
          return { next, problems: [...integrityProblems(db), ...consistencyProblems(db), ...missingWrites(db, ledger)] };
        });
        if (found.problems.length === 0) serve = await startServe({ dataDir });
        return found;
      });
      expect(check.problems, `after kill ${kill}`).toEqual([]);
      nextAtKill.push(check.next);
      agents.forEach((agent) => (agent.ackedSinceStart = 0));
    }
    await waitUntil(() => agents.every((a) => a.ackedSinceStart > 0), 20_000, 'agents writing after the last restart');
    await Promise.all(agents.map((agent) => agent.stop()));
    // The same helper processes carried on through every restart: they reconnected by themselves.
    expect(helpers.every((h) => h.helperPid !== null && isAlive(h.helperPid))).toBe(true);
    await serve.stop();

    const final = withAppDatabase(dataDir, (db) => [...integrityProblems(db), ...consistencyProblems(db), ...missingWrites(db, ledger)]);
    expect(final).toEqual([]);
    expect(reusedNumbers(ledger, nextAtKill)).toEqual([]);
    expect(ledger.unexpected).toEqual([]);
    // The helpers re-bind each agent's worker after every restart (issue 27): no call as a worker
    // ever says W12, and each agent registered once, at the start.
    expect(ledger.notConnected).toBe(0);
    expect(ledger.reconnects).toBeGreaterThanOrEqual(AGENT_NAMES.length);
    const moves = ledger.taskChanges.filter((c) => c.to !== 'proposed').length;
    console.info(
      `crash safety: ${KILLS} kills survived in ${((Date.now() - started) / 1000).toFixed(1)} s; ${ledger.messages.size} acknowledged messages, ` +
        `${ledger.taskChanges.length - moves} tasks and ${moves} task moves verified after every kill; ${ledger.lost} requests lost in flight; ` +
        `${ledger.reconnects} worker reconnects (seed ${SEED})`,
    );
  }, 150_000);
});
