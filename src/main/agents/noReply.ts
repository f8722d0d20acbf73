// Why there was no reply (issue 34 item 3): a managed turn that was started by messages and
// ended without the agent posting a room message records why, per message (no_replies, for
// the message's receipts: "Birch read it and passed") and on the card's activity.
import { workerSessionId } from '../domain/identity/agentKeys';
import { getSession } from '../domain/sessions/sessions';
import type { ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { postedAfter, recordNoReply, type NoReplyReason } from '../store/routingQueries';
import type { TurnLog } from './turnLog';
import type { Trigger } from './types';

/** How each reason reads after an agent's name ("Birch read it and passed"). */
export const NO_REPLY_WORDS: Record<NoReplyReason, string> = {
  passed: 'read it and passed (said nothing)',
  failed: 'read it, but its turn failed',
  stopped: 'read it, but a person stopped its turn',
  timed_out: 'read it, but its turn ran past its time limit',
};

export function noReplyReason(status: 'done' | 'failed' | 'stopped' | 'timed_out'): NoReplyReason {
  return status === 'done' ? 'passed' : status;
}

/** Records, when the turn posted nothing in the room, why, for each message that started it. */
export async function recordTurnWithoutReply(
  store: Storage, agent: ManagedAgentRow, triggers: readonly Trigger[], status: 'done' | 'failed' | 'stopped' | 'timed_out', log: TurnLog,
): Promise<void> {
  const numbers = triggers.flatMap((t) => (t.kind === 'message' && t.roomId === agent.room_id ? [t.number] : []));
  if (numbers.length === 0) return;
  const session = await store.read((q) => getSession(q, workerSessionId(agent.worker_id, agent.room_id)));
  if (!session) return;
  const first = Math.min(...numbers);
  if (await store.read((q) => postedAfter(q, agent.room_id, session.agent_key, first))) return;
  const reason = noReplyReason(status);
  await store.write(async (tx) => {
    for (const n of numbers) await recordNoReply(tx, agent.room_id, n, session.agent_key, reason);
    tx.emit({ type: 'message.receipts', roomId: agent.room_id, sessionId: session.session_id, first, last: Math.max(...numbers) });
  });
  await log.entry('note', `No reply in the room: ${session.display_name} ${NO_REPLY_WORDS[reason]}.`);
}
