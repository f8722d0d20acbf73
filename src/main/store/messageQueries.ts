// Reading messages: pages by number (UNIQUE(room_id, number)), thread replies
// (messages_thread) and attachments; full-text search is the dialect's (store/port.ts).
// Every query is bounded.
import type { MessageRow, Queryable } from './port';

export type { MessageRow } from './port';

export interface AttachmentRow {
  room_id: string;
  message_number: number;
  attachment_id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  path: string;
}

/** Not a prompt-only row (agent_prompt_kind 'auto' with blank text); mirrors the FTS triggers. */
export const NOT_PROMPT_ONLY = `NOT (agent_prompt_kind IS NOT DISTINCT FROM 'auto' AND trim(text) = '')`;

const COLUMNS = `room_id, number, kind, source, sender, text, reply_to_number, thread_root_number,
  agent_prompt_kind, publisher_agent_key, publisher_session_id, created_at, routed_to`;
// Numbers never exceed this, so it stands for "no limit" while keeping a LIMIT clause.
const ALL = 2_147_483_647;
const IN_CHUNK = 500;

const limitOf = (limit: number) => (limit > 0 ? limit : ALL);

/** What a people-facing page leaves out; agents' reads leave out nothing. */
export interface PageFilter {
  /** Leave out prompt-only rows (agent_prompt_kind 'auto', blank text). */
  hidePromptOnly?: boolean;
  /** Leave out thread replies (they show in the thread panel). */
  topLevelOnly?: boolean;
}

function filterSql(filter: PageFilter): string {
  return (filter.hidePromptOnly ? ` AND ${NOT_PROMPT_ONLY}` : '') + (filter.topLevelOnly ? ' AND thread_root_number IS NULL' : '');
}

export function selectMessage(q: Queryable, roomId: string, number: number): Promise<MessageRow | undefined> {
  return q.get<MessageRow>(`SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND number = ?`, roomId, number);
}

/** The newest message number of the room, 0 when it has none. */
export async function selectLatestNumber(q: Queryable, roomId: string): Promise<number> {
  const row = await q.get<{ number: number }>(
    'SELECT number FROM messages WHERE room_id = ? ORDER BY number DESC LIMIT 1',
    roomId,
  );
  return row?.number ?? 0;
}

/**
 * How many messages the room has. Numbers are dense and never reused, and messages are only
 * deleted with their room, so the counter answers without counting a million rows.
 */
export async function countRoomMessages(q: Queryable, roomId: string): Promise<number> {
  const row = await q.get<{ next_message_number: number }>('SELECT next_message_number FROM rooms WHERE room_id = ?', roomId);
  return row === undefined ? 0 : row.next_message_number - 1;
}

/** Messages below `beforeNumber`, newest first; `limit` 0 means all. */
export function selectBefore(q: Queryable, roomId: string, beforeNumber: number, limit: number, filter: PageFilter = {}): Promise<MessageRow[]> {
  return q.all<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND number < ?${filterSql(filter)} ORDER BY number DESC LIMIT ?`,
    roomId, beforeNumber, limitOf(limit),
  );
}

/** Messages above `afterNumber`, oldest first; `limit` 0 means all. */
export function selectAfter(q: Queryable, roomId: string, afterNumber: number, limit: number, filter: PageFilter = {}): Promise<MessageRow[]> {
  return q.all<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND number > ?${filterSql(filter)} ORDER BY number LIMIT ?`,
    roomId, afterNumber, limitOf(limit),
  );
}

/** Replies of the thread rooted at `rootNumber` above `afterNumber`, oldest first. */
export function selectThreadReplies(
  q: Queryable,
  roomId: string,
  rootNumber: number,
  afterNumber: number,
  limit: number,
  filter: PageFilter = {},
): Promise<MessageRow[]> {
  return q.all<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND thread_root_number = ? AND number > ?${filterSql(filter)}
       ORDER BY number LIMIT ?`,
    roomId, rootNumber, afterNumber, limitOf(limit),
  );
}

export interface ReplyStats {
  root: number;
  count: number;
  latest: number;
}

/** Reply count and newest reply of each given thread root, for people (prompt-only rows left out). */
export async function selectReplyStats(q: Queryable, roomId: string, roots: readonly number[]): Promise<ReplyStats[]> {
  const out: ReplyStats[] = [];
  for (let i = 0; i < roots.length; i += IN_CHUNK) {
    const chunk = roots.slice(i, i + IN_CHUNK);
    const rows = await q.all<ReplyStats>(
      `SELECT thread_root_number AS root, COUNT(*) AS count, MAX(number) AS latest FROM messages
         WHERE room_id = ? AND thread_root_number IN (${chunk.map(() => '?').join(',')}) AND ${NOT_PROMPT_ONLY}
         GROUP BY thread_root_number`,
      roomId, ...chunk,
    );
    out.push(...rows);
  }
  return out;
}

/** Attachments of the given messages, in message and attachment order. */
export async function selectAttachments(q: Queryable, roomId: string, numbers: readonly number[]): Promise<AttachmentRow[]> {
  const out: AttachmentRow[] = [];
  for (let i = 0; i < numbers.length; i += IN_CHUNK) {
    const chunk = numbers.slice(i, i + IN_CHUNK);
    const rows = await q.all<AttachmentRow>(
      `SELECT * FROM attachments WHERE room_id = ? AND message_number IN (${chunk.map(() => '?').join(',')})
         ORDER BY message_number, attachment_id`,
      roomId, ...chunk,
    );
    out.push(...rows);
  }
  return out;
}

/** The newest message the session posted in the room after message `after`: a run's reply. */
export async function lastMessageOfSession(q: Queryable, roomId: string, sessionId: string, after: number): Promise<number | null> {
  const row = await q.get<{ number: number }>(
    "SELECT number FROM messages WHERE room_id = ? AND number > ? AND publisher_session_id = ? AND kind = 'message' ORDER BY number DESC LIMIT 1",
    roomId, after, sessionId,
  );
  return row?.number ?? null;
}
