// One @all answered in turn as it stands (issue 34 item 2): its order (broadcast_turns), what
// each agent did since (answers, passes, presence) and the pure rule's verdict (broadcastTurns.ts),
// read in the room's place. Waits, receipts, routing and the managed triggers all read it here,
// and each read with an open turn tells the turn clock its deadline. An answer or pass it reads has
// happened, whatever this machine's clock says: a team's rows carry the database server's time, and
// a server clock ahead of ours must not make a pass count only later, when nothing wakes the waits.
import type { Queryable } from '../../store/port';
import { getMessageRow } from '../messages/read';
import { firstAnswersAfter, passesOn, pausedManagedWorkers, recentlyHandedTurnsOf, selectBroadcastTurns, type BroadcastTurnRow, type TurnAnswerRow } from '../../store/broadcastTurnQueries';
import { isMember, rosterOf, type RoutingServices } from './roomMembers';
import { TURN_WAIT_MS, turnState, type TurnFacts, type TurnState } from './broadcastTurns';

export interface BroadcastRound {
  readonly number: number;
  readonly rows: readonly BroadcastTurnRow[];
  readonly state: TurnState;
  /** The agents' answers after the broadcast (each agent's first), oldest first. */
  readonly answers: readonly TurnAnswerRow[];
}

/**
 * The agents of the room that take @all turns now (the others are away): a session of theirs is
 * a member, and a managed agent is not paused or held.
 */
export async function turnTakers(services: RoutingServices, q: Queryable, place: string, roomId: string): Promise<Set<string>> {
  const roster = await rosterOf(services, q, place, roomId);
  const paused = new Set(await pausedManagedWorkers(q, roomId));
  return new Set(
    roster.sessions.filter((s) => isMember(services, place, roster.managedWorkers, s) && !(s.worker_id !== null && paused.has(s.worker_id))).map((s) => s.agent_key),
  );
}

/**
 * The round of broadcast `number`, or null when it takes no turns. `present` (an agent key)
 * counts that agent as a member whatever presence says: what its turns were just before it went.
 */
export async function broadcastRound(
  services: RoutingServices, q: Queryable, place: string, roomId: string, number: number, now = new Date(), present?: string,
): Promise<BroadcastRound | null> {
  const rows = await selectBroadcastTurns(q, roomId, number);
  if (rows.length === 0) return null;
  const message = await getMessageRow(q, roomId, number);
  if (!message) return null;
  const order = rows.map((r) => r.agent_key);
  const [answers, passes, members] = [await firstAnswersAfter(q, roomId, number, order), await passesOn(q, roomId, number), await turnTakers(services, q, place, roomId)];
  const facts = new Map<string, TurnFacts>(rows.map((r) => [r.agent_key, {
    answeredAt: answers.find((a) => a.publisher_agent_key === r.agent_key)?.created_at ?? null,
    passedAt: passes.find((p) => p.agent_key === r.agent_key && p.reason !== 'away')?.created_at ?? null,
    awayAt: passes.find((p) => p.agent_key === r.agent_key && p.reason === 'away')?.created_at ?? null,
    away: r.agent_key !== present && !members.has(r.agent_key),
    handedAt: r.handed_at,
  }]));
  const state = turnState(order, facts, message.created_at, notBefore(now, [...answers.map((a) => a.created_at), ...passes.map((p) => p.created_at)]), services.turnWaitMs ?? TURN_WAIT_MS);
  if (state.deadline !== null && present === undefined) services.delivery.turnClock?.dueAt(place, roomId, number, Date.parse(state.deadline));
  return { number, rows, state, answers };
}

/** `now`, or the latest of `stamps` when one is later (an ISO time from another clock). */
function notBefore(now: Date, stamps: readonly string[]): Date {
  const latest = Math.max(now.getTime(), ...stamps.map((s) => Date.parse(s)).filter((ms) => !Number.isNaN(ms)));
  return latest === now.getTime() ? now : new Date(latest);
}

/**
 * The broadcasts whose turn was handed to `agentKey` within the last turn wait, oldest first:
 * only in those can the turn still be its own (a pass ends it; leaving moves it on).
 */
export async function turnsHandedInLastWait(services: RoutingServices, q: Queryable, roomId: string, agentKey: string, now = new Date()): Promise<number[]> {
  const since = new Date(now.getTime() - (services.turnWaitMs ?? TURN_WAIT_MS)).toISOString();
  return (await recentlyHandedTurnsOf(q, roomId, agentKey, since)).map((r) => r.message_number);
}
