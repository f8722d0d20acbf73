// An @all turn whose agent's session is taken over by the team's other machine is not recorded
// away (issue 34 item 2, the "really away now" check of recordAwayTurns): Cedar's helper is
// connected to machine A, Birch's to B; in the first agent's turn its helper dies and, within
// the reconnect grace, a connection on the other machine takes its worker over. Once the old
// machine's grace is over it reports the session offline, yet writes no `away` row: the agent
// answers from its new machine and the round goes on to the next agent as usual.
import { describe, expect, it } from 'vitest';
import { workerSessionId } from '../../../src/main/domain/identity/agentKeys';
import { placeKey } from '../../../src/main/domain/placeKeys';
import { RECONNECT_GRACE_MS } from '../../../src/main/mcp/bindings';
import { runPostgresSuites } from '../../support/postgres';
import { TEAM, type InProcessMachine } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { pause, register, send } from '../../mcp/workerHandles/tools';
import { machineApi as api, twoMachinesPerTest } from './twoMachinesSetup';
import { turnAgentsOn, turnsOn as turnsOfMessage, waitOf } from './turnAgents';

const ROOM = 'release-train';
/** The next agent's wait: under the MCP SDK's 60 s request timeout. */
const WAIT_MS = 50_000;
/** How long after the old machine sees the session offline its away check has surely run (it starts at once). */
const AWAY_CHECK_RUNS_MS = 3_000;

describe.skipIf(!runPostgresSuites)('an @all turn whose session another machine took over', () => {
  const machines = twoMachinesPerTest();

  it('is not recorded away when the old machine loses it: the agent answers from the new one, the round goes on', async () => {
    const { a, b, teamRows } = machines;
    const agents = await turnAgentsOn(machines, ROOM);
    for (const agent of agents.values()) await waitOf(agent, 1_000);

    const sent = await api<{ id: string; number: number }>(a, 'messages.send', { roomId: ROOM, place: TEAM, text: '@all who can cut the release branch?' });
    const turnsOn = (machine: InProcessMachine) => turnsOfMessage(machine, ROOM, sent.number);
    const [first, second] = (await turnsOn(a)).order.map((t) => agents.get(t.name)!);
    const secondWait = waitOf(second, WAIT_MS);
    expect((await waitOf(first, 20_000)).messages.map((m) => m.id)).toEqual([sent.id]);

    // In its turn, the first agent's helper dies, and within the reconnect grace the agent is back
    // on the other machine (its worker taken over there).
    const [oldMachine, newMachine] = first.machine === a ? [a, b] : [b, a];
    const sessionId = workerSessionId(first.workerId, ROOM);
    let reportedOffline = false;
    const stopListening = oldMachine.app.hub.delivery.reachability.onChange((key, state) => {
      if (key === placeKey(TEAM, sessionId) && state === 'offline') reportedOffline = true;
    });
    process.kill(first.client.helperPid!, 'SIGKILL');
    const onNew = await newMachine.connect();
    expect((await register(onNew, { worker_id: first.workerId, room_id: ROOM })).agent_session.session_id).toBe(sessionId);
    // The old machine's grace runs out: it reports the session offline, which is when it records an agent away.
    await waitUntil(() => reportedOffline, RECONNECT_GRACE_MS + 20_000, `${first.name} reported offline on ${oldMachine.name}`).finally(stopListening);
    // A fixed wait only to show that nothing gets written: the check starts as the state changes.
    await pause(AWAY_CHECK_RUNS_MS);
    expect(await teamRows("SELECT agent_key, reason FROM no_replies WHERE reason = 'away'")).toEqual([]);
    for (const machine of [a, b]) expect((await turnsOn(machine)).order.map((t) => t.state), machine.name).toEqual(['turn', 'waiting']);

    // The agent answers from its new machine: the next agent's wait gets the @all, and both machines agree.
    const answer = await send(onNew, { worker_id: first.workerId, text: 'I can, from the other machine.' });
    expect((await secondWait).messages.map((m) => m.id)).toEqual([sent.id, answer]);
    const [onA, onB] = [await turnsOn(a), await turnsOn(b)];
    expect(onA.order.map((t) => t.state)).toEqual(['answered', 'turn']);
    expect(onB).toEqual(onA);
  }, 150_000);
});
