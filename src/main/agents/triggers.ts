// What gives a managed agent a turn: a committed message that activates it under the same
// rules as wait_for_messages (the loop guard included: agents it paused wake none of each
// other), or a task handed to it by someone else while it was idle.
// ("Run now" comes from the person directly.) Events the managed-agents service posts
// itself (joins, stop notices) never start a turn. What activates an agent that takes no
// turns now (paused, held, its CLI unable to run) is kept for its next turn. A managed agent's
// room may be this computer's or a team's: a team room's messages come from any machine (the
// team's listener or poll brings them as events of its place), and are read there. A person's
// @all answered in turn reaches each agent in its turn (broadcastHandOver.ts), re-checked on
// every new message, pass and presence change of the room.
import type { EventBus } from '../events/bus';
import { senderNameOf } from '../domain/identity/labels';
import { getMessageRow } from '../domain/messages/read';
import { getSession } from '../domain/sessions/sessions';
import { activeWorkLease } from '../domain/tasks/leases';
import { routerFor } from '../domain/activation/activation';
import type { McpServices } from '../mcp/services';
import { storageIn } from '../store/places';
import { getTaskRow } from '../store/taskQueries';
import { selectBroadcastTurns } from '../store/broadcastTurnQueries';
import { handStartedTurns } from './broadcastHandOver';
import type { Trigger } from './types';

/** A managed agent of a room, with the identity routing needs. */
export interface MemberAgent {
  readonly agentId: string;
  readonly sessionId: string;
  readonly agentKey: string;
  /** False while paused, held or unable to run: what activates it is kept, not run. */
  readonly takesTurns: boolean;
}

export interface TriggerTarget {
  /** The managed agents of the room `roomId` of `place`. */
  agentsIn(place: string, roomId: string): Promise<MemberAgent[]>;
  request(agentId: string, trigger: Trigger): void;
  /** Keeps a trigger of an agent that takes no turns now, for its next turn. */
  keep(agentId: string, trigger: Trigger): void;
  isInTurn(agentId: string): boolean;
  /** Whether its turn runs or waits to run. */
  isBusy(agentId: string): boolean;
  /** The room of a managed agent of this app. */
  roomOf(agentId: string): { place: string; roomId: string } | null;
  /** True (once) for a message the service posted itself. */
  takeOwnEvent(place: string, roomId: string, number: number): boolean;
  roomDeleted(place: string, roomId: string): void;
}

export function watchTriggers(bus: EventBus, services: McpServices, target: TriggerTarget): () => void {
  const startedAt = new Date().toISOString();
  const seenLeases = new Set<string>();

  const onMessage = async (place: string, roomId: string, number: number) => {
    if (target.takeOwnEvent(place, roomId, number)) return;
    const agents = await target.agentsIn(place, roomId);
    if (agents.length === 0) return;
    const store = await storageIn(services.places, place);
    const row = await store.read((q) => getMessageRow(q, roomId, number));
    if (!row) return;
    // Agents in the message's turn order get it in their turn (below), not now.
    const inTurn = new Set((await store.read((q) => selectBroadcastTurns(q, roomId, number))).map((t) => t.agent_key));
    for (const agent of agents) {
      if (inTurn.has(agent.agentKey)) continue;
      const session = await store.read((q) => getSession(q, agent.sessionId));
      // A person who removed or disconnected the agent in the room has taken it out.
      if (!session || session.ended_by === 'person') continue;
      // The general loop guard (delivery/loopGuard.ts) stops managed agents answering each other without end.
      const decision = await store.read(async (q) => (await routerFor(services, q, { place, roomId }, session))(row));
      if (decision.decision === 'activate') {
        const trigger: Trigger = { kind: 'message', roomId, number, sender: senderNameOf(row), text: row.text, reason: decision.reason };
        if (agent.takesTurns) target.request(agent.agentId, trigger);
        else target.keep(agent.agentId, trigger);
      }
    }
    await onRound(place, roomId, agents);
  };

  /** Hands the room's agents whatever @all turns started (an answer, a pass, a deadline, someone going away). */
  const onRound = async (place: string, roomId: string, known?: MemberAgent[]) => {
    const agents = known ?? (await target.agentsIn(place, roomId));
    if (agents.length === 0) return;
    const store = await storageIn(services.places, place);
    await handStartedTurns(services, store, place, roomId, agents, target, senderNameOf);
  };

  const onTask = async (place: string, roomId: string, number: number) => {
    const agents = await target.agentsIn(place, roomId);
    if (agents.length === 0) return;
    const store = await storageIn(services.places, place);
    const task = await store.read((q) => getTaskRow(q, roomId, number));
    const lease = task ? await store.read((q) => activeWorkLease(q, task)) : undefined;
    if (!task || !lease || seenLeases.has(lease.lease_id)) return;
    const agent = agents.find((a) => a.agentKey === lease.agent_key);
    if (!agent) return;
    seenLeases.add(lease.lease_id);
    // During its own turn a new lease is its own claim; a handoff then also mentions it.
    if (target.isInTurn(agent.agentId) || lease.created_at < startedAt) return;
    const trigger: Trigger = { kind: 'task', roomId, number, title: task.title };
    if (agent.takesTurns) target.request(agent.agentId, trigger);
    else target.keep(agent.agentId, trigger);
  };

  const failed = (what: string) => (error: unknown) => console.error(`managed agents: ${what} trigger failed:`, error);
  // A team room of the same id as one of this computer's is another room: events name their place.
  const offs = [
    bus.on('message.created', (e) => void onMessage(e.place, e.roomId, e.number).catch(failed('message'))),
    bus.on('task.changed', (e) => void onTask(e.place, e.roomId, e.number).catch(failed('task'))),
    // A pass, or a turn's deadline (the turn clock publishes it), moves an @all round on.
    bus.on('message.receipts', (e) => {
      if (e.turn) void onRound(e.place, e.roomId).catch(failed('@all turn'));
    }),
    bus.on('worker.changed', (e) => void onRound(e.place, e.roomId).catch(failed('@all turn'))),
    // An agent's managed turn ended: the next agent of an @all round it was in may start.
    bus.on('agent.changed', (e) => {
      const room = target.isBusy(e.agentId) ? null : target.roomOf(e.agentId);
      if (room) void onRound(room.place, room.roomId).catch(failed('@all turn'));
    }),
    bus.on('room.changed', (e) => e.change === 'deleted' && target.roomDeleted(e.place, e.roomId)),
  ];
  return () => offs.forEach((off) => off());
}
