// Reading a room's messages the way agents see them: every row (prompt-only rows included),
// ordered by number. Both the newest page and the page after a cursor use UNIQUE(room_id, number).
import type { Db } from '../../store/database';
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
export function newestPage(db: Db, roomId: string, limit: number): MessageRow[] {
  return selectBefore(db, roomId, MAX_NUMBER + 1, limit).reverse();
}

/** Up to `limit` messages after `afterNumber`, oldest first; `limit` 0 means all of them. */
export function pageAfter(db: Db, roomId: string, afterNumber: number, limit: number): MessageRow[] {
  return selectAfter(db, roomId, afterNumber, limit);
}

/** Up to `limit` messages before `beforeNumber`, oldest first. */
export function pageBefore(db: Db, roomId: string, beforeNumber: number, limit: number): MessageRow[] {
  return selectBefore(db, roomId, beforeNumber, limit).reverse();
}

export function getMessageRow(db: Db, roomId: string, number: number): MessageRow | null {
  return selectMessage(db, roomId, number) ?? null;
}

/** The newest message number, 0 for an empty room. */
export function latestNumber(db: Db, roomId: string): number {
  return selectLatestNumber(db, roomId);
}

export function totalMessageCount(db: Db, roomId: string): number {
  return countRoomMessages(db, roomId);
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
