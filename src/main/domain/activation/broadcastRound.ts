// One @all answered in turn as it stands (issue 34 item 2): its order (broadcast_turns), what
// each agent did since (answers, passes, presence) and the pure rule's verdict (broadcastTurns.ts),
// read in the room's place. Waits, receipts, routing and the managed triggers all read it here,
// and each read with an open turn tells the turn clock its deadline. An answer or pass it reads has
// happened, whatever this machine's clock says: a team's rows carry the database server's time, and
// a server clock ahead of ours must not make a pass count only later, when nothing wakes the waits.
import type { Queryable } from '../../store/port';
import { getMessageRow } from '../messages/read';
import { firstAnswersAfter, passesOn, pausedManagedWorkers, selectBroadcastTurns, type BroadcastTurnRow, type TurnAnswerRow } from '../../store/broadcastTurnQueries';
import { isMember, rosterOf, type RoutingServices } from './roomMembers';
import { TURN_WAIT_MS, turnState, type TurnFacts, type TurnState } from './broadcastTurns';

export interface BroadcastRound {
  readonly number: number;
  readonly rows: readonly BroadcastTurnRow[];
  readonly state: TurnState;
  /** The agents' answers after the broadcast (each agent's first), oldest first. */
  readonly answers: readonly TurnAnswerRow[];
}

/** The round of broadcast `number`, or null when it takes no turns. */
export async function broadcastRound(services: RoutingServices, q: Queryable, place: string, roomId: string, number: number, now = new Date()): Promise<BroadcastRound | null> {
  const rows = await selectBroadcastTurns(q, roomId, number);
  if (rows.length === 0) return null;
  const message = await getMessageRow(q, roomId, number);
  if (!message) return null;
  const order = rows.map((r) => r.agent_key);
  const [answers, passes, roster] = [await firstAnswersAfter(q, roomId, number, order), await passesOn(q, roomId, number), await rosterOf(services, q, place, roomId)];
  // Away: no session of the agent is a member now; a managed agent paused or held takes no turns.
  const paused = new Set(await pausedManagedWorkers(q, roomId));
  const members = new Set(
    roster.sessions.filter((s) => isMember(services, place, roster.managedWorkers, s) && !(s.worker_id !== null && paused.has(s.worker_id))).map((s) => s.agent_key),
  );
  const facts = new Map<string, TurnFacts>(rows.map((r) => [r.agent_key, {
    answeredAt: answers.find((a) => a.publisher_agent_key === r.agent_key)?.created_at ?? null,
    passedAt: passes.find((p) => p.agent_key === r.agent_key)?.created_at ?? null,
    away: !members.has(r.agent_key),
    handedAt: r.handed_at,
  }]));
  const state = turnState(order, facts, message.created_at, notBefore(now, [...answers.map((a) => a.created_at), ...passes.map((p) => p.created_at)]), services.turnWaitMs ?? TURN_WAIT_MS);
  if (state.deadline !== null) services.delivery.turnClock?.dueAt(place, roomId, number, Date.parse(state.deadline));
  return { number, rows, state, answers };
}

/** `now`, or the latest of `stamps` when one is later (an ISO time from another clock). */
function notBefore(now: Date, stamps: readonly string[]): Date {
  const latest = Math.max(now.getTime(), ...stamps.map((s) => Date.parse(s)).filter((ms) => !Number.isNaN(ms)));
  return latest === now.getTime() ? now : new Date(latest);
}
