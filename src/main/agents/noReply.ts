// Why there was no reply (issue 34 item 3): a managed turn that was started by messages and
// ended without the agent posting a room message records why, per message (no_replies, for
// the message's receipts: "Birch read it and passed") and on the card's activity.
import { workerSessionId } from '../domain/identity/agentKeys';
import { getSession } from '../domain/sessions/sessions';
import type { ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { postedAfter, recordNoReply, type NoReplyReason } from '../store/routingQueries';
import { selectBroadcastTurns } from '../store/broadcastTurnQueries';
import type { TurnLog } from './turnLog';
import type { LostAnswer, Trigger } from './types';

/** How each reason reads after an agent's name ("Birch read it and passed"). */
export const NO_REPLY_WORDS: Record<NoReplyReason, string> = {
  passed: 'read it and passed (said nothing)',
  empty: 'read it, but its answer was empty',
  output_limit: 'read it, but its answer hit the output limit',
  denied_tool: 'read it, but you denied a tool',
  approval_expired: 'read it, but your approval ran out (no answer in time)',
  failed: 'read it, but its turn failed',
  stopped: 'read it, but a person stopped its turn',
  timed_out: 'read it, but its turn ran past its time limit',
};

/**
 * A reason this app does not know reads neutrally: a newer app on the same team database may
 * record reasons added after this one, and one unknown row must not fail the whole receipts.
 */
const UNKNOWN_NO_REPLY_WORDS = 'read it, but did not reply';

/** How a stored reason reads (any app of the team may have written it). */
export function noReplyWords(reason: string): string {
  return Object.hasOwn(NO_REPLY_WORDS, reason) ? NO_REPLY_WORDS[reason as NoReplyReason] : UNKNOWN_NO_REPLY_WORDS;
}

/** What the runner knows of how a turn ended, for its no-reply reason. */
export interface TurnEnd {
  readonly status: 'done' | 'failed' | 'stopped' | 'timed_out';
  /** The agent wrote any text at all (tool calls alone do not count). */
  readonly said: boolean;
  /** The CLI said the model's answer came to nothing: cut at its output limit, or empty (its provider reads that). */
  readonly lostAnswer?: LostAnswer;
  /** Who denied a tool this turn asked for ("Ask me"): a person, else an approval that ran out unanswered. */
  readonly deniedBy?: 'person' | 'time_limit' | null;
}

/**
 * Why a turn that posted nothing did so, the cause closest to the person first: they stopped it
 * or its time ran out; they denied a tool it asked for; a tool it asked for waited for their
 * answer until the approval ran out (a person's Deny in the same turn wins: they acted, and
 * they know it); the CLI said its answer was cut at the output limit or empty (whether the turn
 * then failed or ended); the CLI failed; the agent wrote nothing at all; else it read the
 * message and chose to say nothing.
 */
function noReplyReason(end: TurnEnd): NoReplyReason {
  if (end.status === 'stopped' || end.status === 'timed_out') return end.status;
  if (end.deniedBy === 'person') return 'denied_tool';
  if (end.deniedBy === 'time_limit') return 'approval_expired';
  if (end.lostAnswer) return end.lostAnswer;
  if (end.status === 'failed') return 'failed';
  return end.said ? 'passed' : 'empty';
}

/** Records, when the turn posted nothing in the room, why, for each message that started it. */
export async function recordTurnWithoutReply(
  store: Storage, agent: ManagedAgentRow, triggers: readonly Trigger[], end: TurnEnd, log: TurnLog,
): Promise<void> {
  const numbers = triggers.flatMap((t) => (t.kind === 'message' && t.roomId === agent.room_id ? [t.number] : []));
  if (numbers.length === 0) return;
  const session = await store.read((q) => getSession(q, workerSessionId(agent.worker_id, agent.room_id)));
  if (!session) return;
  const first = Math.min(...numbers);
  if (await store.read((q) => postedAfter(q, agent.room_id, session.agent_key, first))) return;
  const reason = noReplyReason(end);
  await store.write(async (tx) => {
    let turns = false;
    for (const n of numbers) {
      await recordNoReply(tx, agent.room_id, n, session.agent_key, reason);
      turns ||= (await selectBroadcastTurns(tx, agent.room_id, n)).some((t) => t.agent_key === session.agent_key);
    }
    // Of an @all answered in turn, a no-reply ends the agent's turn: the next agent's wait looks again.
    tx.emit({ type: 'message.receipts', roomId: agent.room_id, sessionId: session.session_id, first, last: Math.max(...numbers), ...(turns ? { turn: true } : {}) });
  });
  await log.entry('note', `No reply in the room: ${session.display_name} ${NO_REPLY_WORDS[reason]}.`);
}
