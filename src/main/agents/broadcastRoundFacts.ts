// The state of one @all round for the managed side: the stored order, what each agent did since
// (its first room message after the broadcast, its pass = a no_replies row, away = not a member
// now or a managed agent that takes no turns: paused, held or unable to run) and the turn rule.
import { getMessageRow } from '../domain/messages/read';
import { TURN_WAIT_MS, turnState, type TurnFacts, type TurnState } from '../domain/activation/broadcastTurns';
import { isMember, rosterOf, type RoutingServices } from '../domain/activation/routingContext';
import { firstAnswersAfter, passesOn, selectBroadcastTurns } from '../store/broadcastTurnQueries';
import { getManagedMember } from '../store/managedAgentQueries';
import type { Queryable } from '../store/port';

export type RoundServices = RoutingServices & { readonly turnWaitMs?: number };

export interface RoundAnswer {
  readonly agentKey: string;
  readonly number: number;
  readonly from: string;
  readonly text: string;
}

export interface Round {
  readonly state: TurnState;
  /** The answers posted so far by the agents of the order, oldest first. */
  readonly answers: readonly RoundAnswer[];
}

/** The round of broadcast `number`, or null when it takes no turns. */
export async function readRound(services: RoundServices, q: Queryable, place: string, roomId: string, number: number, now: Date): Promise<Round | null> {
  const rows = await selectBroadcastTurns(q, roomId, number);
  const message = rows.length > 0 ? await getMessageRow(q, roomId, number) : undefined;
  if (!message) return null;
  const keys = rows.map((r) => r.agent_key);
  const answers = await firstAnswersAfter(q, roomId, number, keys);
  const passes = new Map((await passesOn(q, roomId, number)).map((p) => [p.agent_key, p.created_at]));
  const { sessions, managedWorkers } = await rosterOf(services, q, place, roomId);
  const facts = new Map<string, TurnFacts>();
  for (const row of rows) {
    const session = sessions.find((s) => s.agent_key === row.agent_key && s.session_kind === 'worker' && !s.ended_at);
    const managed = session?.worker_id ? await getManagedMember(q, session.worker_id, roomId) : undefined;
    const away = !session || !isMember(services, place, managedWorkers, session) || (managed !== undefined && !managed.takes_turns);
    facts.set(row.agent_key, {
      answeredAt: answers.find((a) => a.publisher_agent_key === row.agent_key)?.created_at ?? null,
      passedAt: passes.get(row.agent_key) ?? null,
      away,
      handedAt: row.handed_at,
    });
  }
  const names = new Map(sessions.map((s) => [s.agent_key, s.display_name]));
  return {
    state: turnState(keys, facts, message.created_at, now, services.turnWaitMs ?? TURN_WAIT_MS),
    answers: answers.map((a) => ({ agentKey: a.publisher_agent_key, number: a.number, from: names.get(a.publisher_agent_key) ?? 'An agent', text: a.text })),
  };
}
