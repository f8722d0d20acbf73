// Reading a room's messages the way agents see them: every row (prompt-only rows included),
// ordered by number. Both the newest page and the page after a cursor use UNIQUE(room_id, number).
import type { Queryable } from '../../store/port';
import {
  countRoomMessages,
  selectAfter,
  selectBefore,
  selectLatestNumber,
  selectMessage,
  type MessageRow,
} from '../../store/messageQueries';
import { MAX_NUMBER } from '../ids';
import type { MessageSummary } from '../../events/types';

export type { MessageRow } from '../../store/messageQueries';

/** The newest `limit` messages, oldest first; `limit` 0 means the whole history. */
export async function newestPage(q: Queryable, roomId: string, limit: number): Promise<MessageRow[]> {
  return (await selectBefore(q, roomId, MAX_NUMBER + 1, limit)).reverse();
}

/** Up to `limit` messages after `afterNumber`, oldest first; `limit` 0 means all of them. */
export function pageAfter(q: Queryable, roomId: string, afterNumber: number, limit: number): Promise<MessageRow[]> {
  return selectAfter(q, roomId, afterNumber, limit);
}

/** Up to `limit` messages before `beforeNumber`, oldest first. */
export async function pageBefore(q: Queryable, roomId: string, beforeNumber: number, limit: number): Promise<MessageRow[]> {
  return (await selectBefore(q, roomId, beforeNumber, limit)).reverse();
}

export async function getMessageRow(q: Queryable, roomId: string, number: number): Promise<MessageRow | null> {
  return await selectMessage(q, roomId, number) ?? null;
}

/** The newest message number, 0 for an empty room. */
export function latestNumber(q: Queryable, roomId: string): Promise<number> {
  return selectLatestNumber(q, roomId);
}

export function totalMessageCount(q: Queryable, roomId: string): Promise<number> {
  return countRoomMessages(q, roomId);
}

/** The part of a stored message its commit event carries (events/types.ts), for a row read back instead. */
export function summaryOf(row: MessageRow | null | undefined): MessageSummary | null {
  if (!row) return null;
  return {
    kind: row.kind,
    source: row.source,
    text: row.text,
    publisherAgentKey: row.publisher_agent_key,
    replyToNumber: row.reply_to_number,
    createdAt: row.created_at,
  };
}

/** Whether a message is a prompt-only row, hidden from people and from search. */
export function isPromptOnly(row: Pick<MessageRow, 'agent_prompt_kind' | 'text'>): boolean {
  return row.agent_prompt_kind === 'auto' && row.text.trim() === '';
}
