// Two connected agents taking a person's @all in turn across a team's two machines: Cedar's
// helper on machine A, Birch's on B, each wait_for_messages carrying its own cursor, and the
// turns of a message as a machine's receipts show them (shared by turnsAway and turnsPolled).
import { expect } from 'vitest';
import type { HelperClient } from '../../support';
import { TEAM, type InProcessMachine } from '../../support/teamMachines';
import { call } from '../../mcp/workerHandles/tools';
import { machineApi as api, teamWorker as worker, type TwoMachines } from './twoMachinesSetup';

export interface TurnAgent { name: string; machine: InProcessMachine; client: HelperClient; workerId: string; agentKey: string; cursor: string }
export type WaitReply = Record<string, never> & { messages: Array<{ id: string }>; last_observed_message_id: string };
export type Turns = { order: Array<{ name: string; state: string }>; turnEndsAt: string | null };

/** Cedar connected to A and Birch to B, registered in `room`, by name. */
export async function turnAgentsOn({ a, b }: TwoMachines, room: string): Promise<Map<string, TurnAgent>> {
  const agents = new Map<string, TurnAgent>();
  for (const [name, machine] of [['Cedar', a], ['Birch', b]] as const) {
    const client = await machine.connect();
    const reg = await worker(client, room, name);
    agents.set(name, { name, machine, client, workerId: reg.worker_id, agentKey: reg.agent_session.agent_key, cursor: '' });
  }
  return agents;
}

/** One wait_for_messages of `agent` after its cursor, which moves on to what the wait observed. */
export async function waitOf(agent: TurnAgent, timeout: number, extra: Record<string, unknown> = {}): Promise<WaitReply> {
  const after = agent.cursor ? { after_message_id: agent.cursor } : {};
  const r = await call(agent.client, 'wait_for_messages', { worker_id: agent.workerId, ...after, timeout, ...extra });
  expect(r.isError, JSON.stringify(r)).toBeUndefined();
  agent.cursor = r.last_observed_message_id;
  return r as WaitReply;
}

/** The turns of message `number` in the team's `room`, as `machine`'s receipts show them. */
export async function turnsOn(machine: InProcessMachine, room: string, number: number): Promise<Turns> {
  return (await api<{ receipts: Array<{ turns: Turns }> }>(machine, 'delivery.receipts', { roomId: room, place: TEAM, numbers: [number] })).receipts[0].turns;
}
