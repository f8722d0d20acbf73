// wait_for_messages' side of a person's @all answered in turn (issue 34 item 2). Routing holds
// the broadcast ('awaiting_turn') and the wait's cursor may pass it, so later news still comes;
// each look also asks for the recipient's turns that started and were not handed yet, and a
// result that returns such a broadcast hands it (broadcast_turns.handed_at), with the earlier
// answers (domain/activation/earlierAnswers.ts) and a note that saying nothing is fine. Waiting
// again while the turn is still the recipient's, without having posted, is a pass (as is `pass: true`).
import { msgId, parseNumberedId } from '../../domain/ids';
import { getMessageRow, type MessageRow } from '../../domain/messages/read';
import type { SessionRow } from '../../domain/sessions/sessions';
import { broadcastRound, turnsHandedInLastWait } from '../../domain/activation/broadcastRound';
import { turnStarted } from '../../domain/activation/broadcastTurns';
import { turnsToHand } from '../../domain/activation/earlierAnswers';
import { handTurn, unhandedTurnsOf } from '../../store/broadcastTurnQueries';
import { recordNoReply } from '../../store/routingQueries';
import type { RoomRef } from '../identity';
import type { ToolEnv } from '../services';

export const TURN_NOTE =
  'Your turn to answer this @all; earlier_answers are what other agents said before your turn. Say nothing if you have nothing to add: ' +
  'your next wait_for_messages passes your turn.';

/** The recipient's broadcasts at or before `cursor` whose turn started and that no result handed yet, oldest first. */
export async function startedTurns(env: ToolEnv, room: RoomRef, recipient: SessionRow, cursor: number): Promise<MessageRow[]> {
  return room.storage.read(async (q) => {
    const out: MessageRow[] = [];
    for (const turn of await unhandedTurnsOf(q, room.roomId, recipient.agent_key)) {
      if (turn.message_number > cursor) break;
      const round = await broadcastRound(env.services, q, room.place, room.roomId, turn.message_number);
      const row = round && turnStarted(round.state, recipient.agent_key) ? await getMessageRow(q, room.roomId, turn.message_number) : null;
      if (row) out.push(row);
    }
    return out;
  });
}

/**
 * Passes the recipient's turns that are still its own (handed, not answered, not timed out):
 * it waits again without posting, or says `pass`. The next agent's wait wakes at once.
 */
export async function passOpenTurns(env: ToolEnv, room: RoomRef, recipient: SessionRow): Promise<void> {
  const open = await room.storage.read(async (q) => {
    const numbers: number[] = [];
    for (const number of await turnsHandedInLastWait(env.services, q, room.roomId, recipient.agent_key)) {
      const round = await broadcastRound(env.services, q, room.place, room.roomId, number);
      if (round?.state.current === recipient.agent_key) numbers.push(number);
    }
    return numbers;
  });
  if (open.length === 0) return;
  await room.storage.write(async (tx) => {
    for (const n of open) {
      await recordNoReply(tx, room.roomId, n, recipient.agent_key, 'passed');
      tx.emit({ type: 'message.receipts', roomId: room.roomId, sessionId: recipient.session_id, first: n, last: n, turn: true });
    }
  });
}

interface ResultMessage {
  readonly id: string;
}

/**
 * Hands the recipient the turn broadcasts a result returns: marks them handed and adds the
 * earlier answers (marked, bounded) and the note. Other messages pass unchanged.
 */
export async function handTurns<M extends ResultMessage>(env: ToolEnv, room: RoomRef, recipient: SessionRow, messages: readonly M[]): Promise<M[]> {
  const numbers = new Set(messages.map((m) => parseNumberedId('msg', m.id) ?? 0));
  const turns = await room.storage.read((q) => turnsToHand(env.services, q, room.place, room.roomId, recipient.agent_key, numbers));
  if (turns.size === 0) return [...messages];
  await room.storage.write(async (tx) => {
    for (const n of turns.keys()) await handTurn(tx, room.roomId, n, recipient.agent_key);
  });
  return messages.map((m) => {
    const earlier = turns.get(parseNumberedId('msg', m.id) ?? 0);
    return earlier ? { ...m, earlier_answers: earlier.map((a) => ({ from: a.from, id: msgId(a.number), text: a.text })), turn: TURN_NOTE } : m;
  });
}
