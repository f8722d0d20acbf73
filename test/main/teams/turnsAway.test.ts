// An @all turn whose agent goes offline on one machine moves on on the other machine of the team
// too (issue 34 item 2): Cedar's helper is connected to machine A, Birch's to machine B, and a
// person's @all gives one of them the first turn. Its helper is killed mid-turn; once its
// machine's reconnect grace is over that machine records it away, and the other machine hears it
// (LISTEN/NOTIFY, or PgBouncer's poll fallback) and hands the next agent's waiting
// wait_for_messages the @all. The turns last the product's 90 s and the
// wait 50 s, so only Cedar going away can explain it (before, B waited for the turn's deadline).
import { describe, expect, it } from 'vitest';
import { TURN_WAIT_MS } from '../../../src/main/domain/activation/broadcastTurns';
import { RECONNECT_GRACE_MS } from '../../../src/main/mcp/bindings';
import { TEAM, type InProcessMachine } from '../../support/teamMachines';
import { pause } from '../../mcp/workerHandles/tools';
import { machineApi as api, twoMachinesPerTest } from './twoMachinesSetup';
import { turnAgentsOn, turnsOn as turnsOfMessage, waitOf } from './turnAgents';

const ROOM = 'release-train';
/** The next agent's wait: shorter than one turn, so a deadline never ends it with the @all. */
const WAIT_MS = 50_000; // under the MCP SDK's 60 s request timeout
/** The grace (10 s) and a moment for the hint or a few 1 s polls: well inside the wait, with room for a busy machine. */
const COMES_WITHIN_MS = RECONNECT_GRACE_MS + 20_000;

for (const polling of [false, true]) {
  const how = polling ? "through PgBouncer's poll fallback (no LISTEN)" : 'through LISTEN/NOTIFY';
  describe(`an @all turn whose agent went offline on one machine, heard on the other ${how}`, () => {
    const machines = twoMachinesPerTest({ polling });

    it("the next agent's wait on the other machine gets the @all after the grace, long before the turn would end", async () => {
      expect(WAIT_MS).toBeLessThan(TURN_WAIT_MS);
      const { a, b } = machines;
      const agents = await turnAgentsOn(machines, ROOM);
      for (const agent of agents.values()) await waitOf(agent, 1_000);

      const sent = await api<{ id: string; number: number }>(a, 'messages.send', { roomId: ROOM, place: TEAM, text: '@all who can cut the release branch?' });
      const turnsOn = (machine: InProcessMachine) => turnsOfMessage(machine, ROOM, sent.number);
      // The message number rotates the order: whoever goes first, the next agent is on the other machine.
      const [first, second] = (await turnsOn(a)).order.map((t) => agents.get(t.name)!);
      expect(first.machine).not.toBe(second.machine);
      const secondWait = waitOf(second, WAIT_MS);
      expect((await waitOf(first, 20_000)).messages.map((m) => m.id)).toEqual([sent.id]);
      // Both machines see the first agent's turn open (the second's wait is held).
      for (const machine of [a, b]) expect((await turnsOn(machine)).order.map((t) => t.state), machine.name).toEqual(['turn', 'waiting']);

      // The first agent's helper dies mid-turn and nothing reconnects it.
      process.kill(first.client.helperPid!, 'SIGKILL');
      // A wait's last look when it ends would find Cedar away too: the @all must come well before that.
      const reply = await Promise.race([secondWait, pause(COMES_WITHIN_MS).then(() => null)]);
      expect(reply?.messages.map((m) => m.id), 'the @all before the wait ran out').toEqual([sent.id]);
      // Both machines read the same: the first agent went away, and the second's 90 s count from then.
      const [onA, onB] = [await turnsOn(a), await turnsOn(b)];
      expect(onA.order.map((t) => t.state)).toEqual(['away', 'turn']);
      expect(onB).toEqual(onA);
      const left = Date.parse(onB.turnEndsAt!) - Date.now();
      expect(left).toBeGreaterThan(TURN_WAIT_MS - COMES_WITHIN_MS);
    }, 150_000);
  });
}
