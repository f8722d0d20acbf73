// A managed agent's turn of a person's @all answered in turn (issue 34 item 2): its trigger is
// requested only once its turn started, by the same turn rule the waits use, and the turn is
// marked handed in the write that decides it, so it is requested once however many events
// (a new message, a pass, a deadline) ask at the same moment. Its prompt carries the earlier
// answers (domain/activation/earlierAnswers.ts, the rule the waits and pushes use). A turn that
// is over before it was handed (the agent answered already, went away or its time ran out) is
// marked handed and starts nothing. An agent of this app waits while an agent before it in the
// order is still in a managed turn here (it answers, then its CLI finishes): the agents' turns
// never overlap.
import { getMessageRow, type MessageRow } from '../domain/messages/read';
import { TURN_WAIT_MS, turnStarted, type TurnPosition } from '../domain/activation/broadcastTurns';
import { broadcastRound } from '../domain/activation/broadcastRound';
import { earlierAnswers } from '../domain/activation/earlierAnswers';
import type { RoutingServices } from '../domain/activation/roomMembers';
import { handTurn, unhandedTurnsOf } from '../store/broadcastTurnQueries';
import type { Storage } from '../store/port';
import type { Trigger } from './types';

/** A managed agent of the room (triggers.ts's MemberAgent). */
interface RoundAgent {
  readonly agentId: string;
  readonly agentKey: string;
  readonly takesTurns: boolean;
}

export interface HandOverTarget {
  request(agentId: string, trigger: Trigger): void;
  /** Whether the agent's turn runs or waits to run now. */
  isBusy(agentId: string): boolean;
}

/** How long at most a turn waits for an earlier agent of this app that answered or passed to finish its managed turn. */
const FINISH_SHARE = 0.5;

/**
 * True while an earlier agent of the round, run by this app, answered or passed and its managed
 * turn still runs (its CLI finishing): the next turn waits for it (the turn ending re-checks), so
 * turns do not overlap, but for half of its own turn wait at most (the turn clock re-checks then),
 * so a busy agent cannot make the next one's turn run out. A turn that ran out or an agent that
 * went away holds nothing up.
 */
function finishingBefore(
  services: RoutingServices, agents: readonly RoundAgent[], before: readonly TurnPosition[], target: HandOverTarget, place: string, roomId: string, number: number, startedAt: string | null,
): boolean {
  const finishing = before.some((p) => (p.state === 'answered' || p.state === 'passed') && agents.some((a) => a.agentKey === p.agentKey && target.isBusy(a.agentId)));
  if (!finishing || startedAt === null) return false;
  const until = Date.parse(startedAt) + FINISH_SHARE * (services.turnWaitMs ?? TURN_WAIT_MS);
  if (Date.now() >= until) return false;
  services.delivery.turnClock?.dueAt(place, roomId, number, until);
  return true;
}

/**
 * Hands each of `agents` the turns of the room's @all rounds that started for it and were not
 * handed yet: a trigger with the earlier answers for an agent whose turn it is now.
 */
export async function handStartedTurns(
  services: RoutingServices, store: Storage, place: string, roomId: string, agents: readonly RoundAgent[], target: HandOverTarget, sender: (row: MessageRow) => string,
): Promise<void> {
  for (const agent of agents) {
    // Paused, held or unable to run: away once the room says so (managed_members), then handed without a turn.
    if (!agent.takesTurns) continue;
    const open = await store.read((q) => unhandedTurnsOf(q, roomId, agent.agentKey));
    for (const { message_number: number } of open) {
      const round = await store.read((q) => broadcastRound(services, q, place, roomId, number));
      if (!round || !turnStarted(round.state, agent.agentKey)) continue;
      const at = round.state.positions.findIndex((p) => p.agentKey === agent.agentKey);
      const mine = round.state.positions[at];
      if (mine.state === 'turn' && finishingBefore(services, agents, round.state.positions.slice(0, at), target, place, roomId, number, mine.startedAt)) continue;
      if (!(await store.write((tx) => handTurn(tx, roomId, number, agent.agentKey)))) continue;
      if (mine.state !== 'turn') continue;
      const row = await store.read((q) => getMessageRow(q, roomId, number));
      if (!row) continue;
      const earlier = earlierAnswers(round.answers, agent.agentKey);
      target.request(agent.agentId, { kind: 'message', roomId, number, sender: sender(row), text: row.text, reason: 'broadcast', earlier });
    }
  }
}
