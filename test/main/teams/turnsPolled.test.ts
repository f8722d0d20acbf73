// A pass on an @all answered in turn (issue 34 item 2) through the poll fallback: both apps reach
// the team only through a transaction-mode PgBouncer, so LISTEN delivers nothing and each app
// polls (changePoll.ts). Cedar's helper is connected to one machine, Birch's to the other; a
// person's @all gives the turns. The first agent passes on its machine; the next agent's wait on
// the other machine gets the @all through that machine's poll alone. The turns last the
// product's 90 s and the wait 50 s, so only the pass can explain it (before the pass was
// change-tracked, nothing woke that wait: it returned at its own end, ≈ 48 s after the pass, when
// its last look read the round). And a pass stamped by a database server whose clock runs ahead of
// the machine reading it counts at once there too (it used to count only once that machine's clock
// caught up, and nothing woke the wait then).
import { describe, expect, it } from 'vitest';
import { TURN_WAIT_MS } from '../../../src/main/domain/activation/broadcastTurns';
import { runPostgresSuites } from '../../support/postgres';
import { waitUntil } from '../../support/waitUntil';
import { TEAM } from '../../support/teamMachines';
import { pause } from '../../mcp/workerHandles/tools';
import { machineApi as api, twoMachinesPerTest } from './twoMachinesSetup';
import { turnAgentsOn, turnsOn, waitOf, type WaitReply } from './turnAgents';

const ROOM = 'release-train';
/** The next agent's wait: shorter than one turn, so a deadline never ends it with the @all. */
const WAIT_MS = 50_000; // under the MCP SDK's 60 s request timeout
/** The pass reaches the other machine within a few 1 s polls; half the wait leaves a busy machine room. */
const COMES_WITHIN_MS = 25_000;

describe.skipIf(!runPostgresSuites)('an @all pass on one machine, heard on the other through PgBouncer\'s poll fallback (no LISTEN)', () => {
  const machines = twoMachinesPerTest({ polling: true });

  /**
   * Cedar on A and Birch on B, both apps polling; a person's @all, handed to the first agent in
   * turn, while the next agent (on the other machine) waits; that machine has polled everything so
   * far, so only the pass is left for its poll to find.
   */
  async function firstTurnHanded() {
    expect(WAIT_MS).toBeLessThan(TURN_WAIT_MS);
    const { a, b } = machines;
    const agents = await turnAgentsOn(machines, ROOM);
    for (const agent of agents.values()) await waitOf(agent, 1_000);
    // Both apps poll, past their first poll (which re-checks the whole team and so wakes every wait).
    for (const machine of [a, b]) {
      const storage = await machine.app.teams.connections.storage(TEAM);
      await storage.ready();
      expect(storage.wakeUps()).toEqual({ mode: 'poll', pollMs: 1_000 });
      await waitUntil(() => storage.pollCounts().polls >= 2, 10_000, `${machine.name}'s first polls`);
    }

    const sent = await api<{ id: string; number: number }>(a, 'messages.send', { roomId: ROOM, place: TEAM, text: '@all who can cut the release branch?' });
    const [first, second] = (await turnsOn(a, ROOM, sent.number)).order.map((t) => agents.get(t.name)!);
    expect(first.machine).not.toBe(second.machine);
    const secondWait = waitOf(second, WAIT_MS);
    expect((await waitOf(first, 20_000)).messages.map((m) => m.id)).toEqual([sent.id]);
    // Both machines see the first agent's turn open (the second's wait is held).
    for (const machine of [a, b]) expect((await turnsOn(machine, ROOM, sent.number)).order.map((t) => t.state), machine.name).toEqual(['turn', 'waiting']);
    // The second's machine has polled everything so far (two polls began after the @all was handed).
    const storage = await second.machine.app.teams.connections.storage(TEAM);
    const polls = storage.pollCounts().polls;
    await waitUntil(() => storage.pollCounts().polls >= polls + 2, 10_000, `two polls of ${second.machine.name} after the @all`);
    return { sent, first, second, secondWait, storage, turnHints: storage.pollCounts().turnHints };
  }

  /** The next agent's wait, if it returns well before it would run out (its last look at its end also finds the pass). */
  const soon = (wait: Promise<WaitReply>) => Promise.race([wait, pause(COMES_WITHIN_MS).then(() => null)]);

  it("a pass on A starts the next agent's turn on B at once, long before the turn would end", async () => {
    const { sent, first, secondWait, storage, turnHints } = await firstTurnHanded();
    const passing = waitOf(first, 1_000, { pass: true });
    const got = await soon(secondWait);
    expect(got?.messages.map((m) => m.id), 'the @all before the wait ran out').toEqual([sent.id]);
    expect(storage.pollCounts().turnHints).toBeGreaterThan(turnHints);
    await passing;
  }, 120_000);

  it("a pass stamped by a database server whose clock runs a minute ahead of B's starts the next turn on B at once too", async () => {
    const { sent, first, secondWait, storage, turnHints } = await firstTurnHanded();
    // The first agent's pass as its app writes it (a no_replies row, stamped with the server's time),
    // on a server a minute ahead of B: more than the race below, less than a turn.
    const serverAhead = new Date(Date.now() + 60_000).toISOString();
    expect(Date.parse(serverAhead) - Date.now()).toBeGreaterThan(COMES_WITHIN_MS);
    await machines.teamRows(
      "INSERT INTO no_replies (room_id, message_number, agent_key, reason, created_at) VALUES ($1, $2, $3, 'passed', $4)",
      ROOM, sent.number, first.agentKey, serverAhead,
    );
    const got = await soon(secondWait);
    expect(got?.messages.map((m) => m.id), 'the @all before the wait ran out').toEqual([sent.id]);
    expect(storage.pollCounts().turnHints).toBeGreaterThan(turnHints);
  }, 120_000);
});
