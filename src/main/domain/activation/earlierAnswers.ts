// The earlier answers an agent's turn of a person's @all comes with (issue 34 item 2): one rule
// for the wait result, the managed turn prompt and the channel push. They are the answers that
// came before the agent's turn reached it: every other agent of the order that answered by the
// time the turn is handed (out of order too: an agent may answer before its own turn came),
// each agent's first answer after the broadcast, oldest first, bounded.
import type { Queryable } from '../../store/port';
import { unhandedTurnsOf, type TurnAnswerRow } from '../../store/broadcastTurnQueries';
import { senderNameOf } from '../identity/labels';
import { cutToChars } from '../messages/validation';
import { broadcastRound } from './broadcastRound';
import type { RoutingServices } from './roomMembers';

/** Earlier answers one turn carries at most, and the characters (code points) of each. */
export const MAX_EARLIER_ANSWERS = 8;
export const EARLIER_ANSWER_CHARS = 4_000;

/** An earlier agent's answer to a broadcast, as a later agent's turn shows it. */
export interface EarlierAnswer {
  readonly number: number;
  /** The name the agent answered under. */
  readonly from: string;
  /** Its text, cut to EARLIER_ANSWER_CHARS (then ending in "…"; read_messages has it whole). */
  readonly text: string;
}

/** The pure rule: the round's answers (each agent's first, oldest first) that `agentKey` is handed with its turn. */
export function earlierAnswers(answers: readonly Pick<TurnAnswerRow, 'number' | 'publisher_agent_key' | 'sender' | 'text'>[], agentKey: string): EarlierAnswer[] {
  return [...answers]
    .filter((a) => a.publisher_agent_key !== agentKey)
    .sort((a, b) => a.number - b.number)
    .slice(0, MAX_EARLIER_ANSWERS)
    .map((a) => ({ number: a.number, from: senderNameOf({ source: 'agent', sender: a.sender }), text: boundedAnswer(a.text) }));
}

function boundedAnswer(text: string): string {
  const cut = cutToChars(text, EARLIER_ANSWER_CHARS);
  return cut === text ? text : `${cut}…`;
}

/**
 * Of the messages `numbers`, the @all broadcasts whose turn `agentKey` was not handed yet, each
 * with the earlier answers to hand it with: what a wait result or a push that returns them hands.
 * Its callers pass only messages that reach the agent now, so each such turn has started (a held
 * broadcast routes silent until then). Read in the room's place.
 */
export async function turnsToHand(
  services: RoutingServices, q: Queryable, place: string, roomId: string, agentKey: string, numbers: ReadonlySet<number>,
): Promise<Map<number, EarlierAnswer[]>> {
  const found = new Map<number, EarlierAnswer[]>();
  for (const turn of await unhandedTurnsOf(q, roomId, agentKey)) {
    if (!numbers.has(turn.message_number)) continue;
    const round = await broadcastRound(services, q, place, roomId, turn.message_number);
    if (round) found.set(turn.message_number, earlierAnswers(round.answers, agentKey));
  }
  return found;
}
