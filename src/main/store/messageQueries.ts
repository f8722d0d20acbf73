// Reading messages: pages by number (UNIQUE(room_id, number)), thread replies
// (messages_thread), attachments and full-text search. Every query is bounded.
import type { Db } from './database';

export interface MessageRow {
  room_id: string;
  number: number;
  kind: 'message' | 'status' | 'event';
  source: 'agent' | 'human' | 'system';
  sender: string;
  text: string;
  reply_to_number: number | null;
  thread_root_number: number | null;
  agent_prompt_kind: 'join' | 'inline' | 'auto' | null;
  publisher_agent_key: string | null;
  publisher_session_id: string | null;
  created_at: string;
}

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
export const NOT_PROMPT_ONLY = `NOT (agent_prompt_kind IS 'auto' AND trim(text) = '')`;

const COLUMNS = `room_id, number, kind, source, sender, text, reply_to_number, thread_root_number,
  agent_prompt_kind, publisher_agent_key, publisher_session_id, created_at`;
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

export function selectMessage(db: Db, roomId: string, number: number): MessageRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND number = ?`).get(roomId, number) as
    | MessageRow
    | undefined;
}

/** The newest message number of the room, 0 when it has none. */
export function selectLatestNumber(db: Db, roomId: string): number {
  const row = db
    .prepare('SELECT number FROM messages WHERE room_id = ? ORDER BY number DESC LIMIT 1')
    .get(roomId) as { number: number } | undefined;
  return row?.number ?? 0;
}

/**
 * How many messages the room has. Numbers are dense and never reused, and messages are only
 * deleted with their room, so the counter answers without counting a million rows.
 */
export function countRoomMessages(db: Db, roomId: string): number {
  const next = db.prepare('SELECT next_message_number FROM rooms WHERE room_id = ?').pluck().get(roomId) as number | undefined;
  return next === undefined ? 0 : next - 1;
}

/** Messages below `beforeNumber`, newest first; `limit` 0 means all. */
export function selectBefore(db: Db, roomId: string, beforeNumber: number, limit: number, filter: PageFilter = {}): MessageRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND number < ?${filterSql(filter)} ORDER BY number DESC LIMIT ?`)
    .all(roomId, beforeNumber, limitOf(limit)) as MessageRow[];
}

/** Messages above `afterNumber`, oldest first; `limit` 0 means all. */
export function selectAfter(db: Db, roomId: string, afterNumber: number, limit: number, filter: PageFilter = {}): MessageRow[] {
  return db
    .prepare(`SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND number > ?${filterSql(filter)} ORDER BY number LIMIT ?`)
    .all(roomId, afterNumber, limitOf(limit)) as MessageRow[];
}

/** Replies of the thread rooted at `rootNumber` above `afterNumber`, oldest first. */
export function selectThreadReplies(
  db: Db,
  roomId: string,
  rootNumber: number,
  afterNumber: number,
  limit: number,
  filter: PageFilter = {},
): MessageRow[] {
  return db
    .prepare(
      `SELECT ${COLUMNS} FROM messages WHERE room_id = ? AND thread_root_number = ? AND number > ?${filterSql(filter)}
       ORDER BY number LIMIT ?`,
    )
    .all(roomId, rootNumber, afterNumber, limitOf(limit)) as MessageRow[];
}

export interface ReplyStats {
  root: number;
  count: number;
  latest: number;
}

/** Reply count and newest reply of each given thread root, for people (prompt-only rows left out). */
export function selectReplyStats(db: Db, roomId: string, roots: readonly number[]): ReplyStats[] {
  const out: ReplyStats[] = [];
  for (let i = 0; i < roots.length; i += IN_CHUNK) {
    const chunk = roots.slice(i, i + IN_CHUNK);
    const rows = db
      .prepare(
        `SELECT thread_root_number AS root, COUNT(*) AS count, MAX(number) AS latest FROM messages
         WHERE room_id = ? AND thread_root_number IN (${chunk.map(() => '?').join(',')}) AND ${NOT_PROMPT_ONLY}
         GROUP BY thread_root_number`,
      )
      .all(roomId, ...chunk) as ReplyStats[];
    out.push(...rows);
  }
  return out;
}

/** Attachments of the given messages, in message and attachment order. */
export function selectAttachments(db: Db, roomId: string, numbers: readonly number[]): AttachmentRow[] {
  const out: AttachmentRow[] = [];
  for (let i = 0; i < numbers.length; i += IN_CHUNK) {
    const chunk = numbers.slice(i, i + IN_CHUNK);
    const rows = db
      .prepare(
        `SELECT * FROM attachments WHERE room_id = ? AND message_number IN (${chunk.map(() => '?').join(',')})
         ORDER BY message_number, attachment_id`,
      )
      .all(roomId, ...chunk) as AttachmentRow[];
    out.push(...rows);
  }
  return out;
}

export interface SearchRow extends MessageRow {
  snippet: string;
}

/**
 * Full-text matches of `ftsQuery` (already safe FTS5 syntax) in one room, newest first.
 * Prompt-only rows are never in messages_fts, so they never match.
 */
export function selectSearchMatches(db: Db, roomId: string, ftsQuery: string, limit: number, snippetTokens: number): SearchRow[] {
  return db
    .prepare(
      `SELECT m.room_id, m.number, m.kind, m.source, m.sender, m.text, m.reply_to_number, m.thread_root_number,
         m.agent_prompt_kind, m.publisher_agent_key, m.publisher_session_id, m.created_at,
         snippet(messages_fts, 0, '**', '**', '…', ?) AS snippet
       FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid
       WHERE messages_fts MATCH ? AND m.room_id = ?
       -- rowid order is number order within a room, and FTS5 walks it backwards without
       -- sorting every match first: a common word stays as fast as a rare one.
       ORDER BY messages_fts.rowid DESC LIMIT ?`,
    )
    // FTS5 parses a query as a C string: a NUL ends it early ("unterminated string"). The
    // tokenizer treats NUL as a separator anyway, so a space in its place searches the same.
    .all(snippetTokens, ftsQuery.replace(/\u0000/g, ' '), roomId, limit) as SearchRow[];
}
