// SQL for room memory (room_facts), human requests (human_requests) and the cross-room
// "Needs you" queue. Every list is bounded by LIMIT; domain rules live in domain/knowledge.
import type { Queryable, TextQuery, Tx } from './port';

export type FactCategory = 'goal' | 'decision' | 'constraint' | 'term' | 'reference';
export type RequestCategory = 'question' | 'decision' | 'approval' | 'review';
export type RequestStatus = 'open' | 'answered' | 'dismissed';
export type DismissableKind = 'mention' | 'review' | 'blocked';

/** The columns facts and requests share. */
export interface KnowledgeRow<C extends string> {
  room_id: string;
  number: number;
  client_id: string;
  category: C;
  title: string;
  body: string;
  source_message_number: number | null;
  source_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface FactRow extends KnowledgeRow<FactCategory> {
  created_by: string;
  retired_at: string | null;
}

export interface RequestRow extends KnowledgeRow<RequestCategory> {
  recommendation: string | null;
  unblocks: string | null;
  event_message_number: number | null;
  status: RequestStatus;
  requested_by: string;
  requested_by_agent_key: string | null;
  requested_by_name: string | null;
  answer_text: string | null;
  answered_by: string | null;
  answered_at: string | null;
}

/** The content facts and requests share, as checked and stored. */
export interface KnowledgeContent<C extends string> {
  category: C;
  title: string;
  body: string;
  sourceMessageNumber: number | null;
  sourceUrl: string | null;
}

/** The editable content of a fact. */
export type FactContent = KnowledgeContent<FactCategory>;

/** What an agent asks in a request. */
export interface RequestContent extends KnowledgeContent<RequestCategory> {
  recommendation: string | null;
  unblocks: string | null;
}

// ---- facts ----

export function getFactRow(q: Queryable, roomId: string, number: number): Promise<FactRow | undefined> {
  return q.get<FactRow>('SELECT * FROM room_facts WHERE room_id = ? AND number = ?', roomId, number);
}

export function getFactByClientId(q: Queryable, roomId: string, clientId: string): Promise<FactRow | undefined> {
  return q.get<FactRow>('SELECT * FROM room_facts WHERE room_id = ? AND client_id = ?', roomId, clientId);
}

export async function insertFactRow(
  tx: Tx,
  fact: FactContent & { roomId: string; number: number; clientId: string; createdBy: string },
): Promise<void> {
  await tx.run(
    `INSERT INTO room_facts (room_id, number, client_id, category, title, body, source_message_number, source_url,
         created_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    fact.roomId, fact.number, fact.clientId, fact.category, fact.title, fact.body, fact.sourceMessageNumber,
    fact.sourceUrl, fact.createdBy, tx.now, tx.now,
  );
}

export async function updateFactContent(tx: Tx, roomId: string, number: number, content: FactContent): Promise<void> {
  await tx.run(
    `UPDATE room_facts SET category = ?, title = ?, body = ?, source_message_number = ?, source_url = ?, updated_at = ?
       WHERE room_id = ? AND number = ?`,
    content.category, content.title, content.body, content.sourceMessageNumber, content.sourceUrl, tx.now,
    roomId, number,
  );
}

/** Retires (retiredAt set) or restores (null) a fact. */
export async function setFactRetired(tx: Tx, roomId: string, number: number, retiredAt: string | null): Promise<void> {
  await tx.run(
    'UPDATE room_facts SET retired_at = ?, updated_at = ? WHERE room_id = ? AND number = ?',
    retiredAt, tx.now, roomId, number,
  );
}

/** The room's newest `limit` facts, returned in number order. */
export async function listFactRows(q: Queryable, roomId: string, options: { includeRetired: boolean; limit: number }): Promise<FactRow[]> {
  const retired = options.includeRetired ? '' : 'AND retired_at IS NULL';
  const rows = await q.all<FactRow>(
    `SELECT * FROM room_facts WHERE room_id = ? ${retired} ORDER BY number DESC LIMIT ?`,
    roomId, options.limit,
  );
  return rows.reverse();
}

// ---- human requests ----

export function getRequestRow(q: Queryable, roomId: string, number: number): Promise<RequestRow | undefined> {
  return q.get<RequestRow>('SELECT * FROM human_requests WHERE room_id = ? AND number = ?', roomId, number);
}

export function getRequestByClientId(q: Queryable, roomId: string, clientId: string): Promise<RequestRow | undefined> {
  return q.get<RequestRow>('SELECT * FROM human_requests WHERE room_id = ? AND client_id = ?', roomId, clientId);
}

export interface NewRequestRow extends RequestContent {
  roomId: string;
  number: number;
  clientId: string;
  eventMessageNumber: number;
  requestedBy: string;
  requestedByAgentKey: string | null;
  requestedByName: string;
}

export async function insertRequestRow(tx: Tx, r: NewRequestRow): Promise<void> {
  await tx.run(
    `INSERT INTO human_requests (room_id, number, client_id, category, title, body, recommendation, unblocks,
         source_message_number, source_url, event_message_number, status, requested_by, requested_by_agent_key,
         requested_by_name, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)`,
    r.roomId, r.number, r.clientId, r.category, r.title, r.body, r.recommendation, r.unblocks,
    r.sourceMessageNumber, r.sourceUrl, r.eventMessageNumber, r.requestedBy, r.requestedByAgentKey,
    r.requestedByName, tx.now, tx.now,
  );
}

export async function markRequestAnswered(tx: Tx, roomId: string, number: number, text: string, answeredBy: string): Promise<void> {
  await tx.run(
    `UPDATE human_requests SET status = 'answered', answer_text = ?, answered_by = ?, answered_at = ?, updated_at = ?
       WHERE room_id = ? AND number = ?`,
    text, answeredBy, tx.now, tx.now, roomId, number,
  );
}

export async function markRequestDismissed(tx: Tx, roomId: string, number: number): Promise<void> {
  await tx.run(
    `UPDATE human_requests SET status = 'dismissed', updated_at = ? WHERE room_id = ? AND number = ?`,
    tx.now, roomId, number,
  );
}

/** The room's newest `limit` requests, newest first. */
export function listRequestRows(q: Queryable, roomId: string, limit: number): Promise<RequestRow[]> {
  return q.all<RequestRow>(
    'SELECT * FROM human_requests WHERE room_id = ? ORDER BY number DESC LIMIT ?',
    roomId, limit,
  );
}

// ---- "Needs you" (across rooms; archived rooms are read-only, so they are left out) ----

/** A numbered item of a live room, with the room's name for the cross-room queue. */
interface QueueItemRow {
  room_id: string;
  room_name: string;
  number: number;
}

export type OpenRequestQueueRow = RequestRow & QueueItemRow;

/** Open requests, newest first (ties by room); SQLite walks index human_requests_queue (status, created_at) backwards. */
export function listOpenRequestsAcrossRooms(q: Queryable, limit: number): Promise<OpenRequestQueueRow[]> {
  return q.all<OpenRequestQueueRow>(
    `SELECT h.*, r.display_name AS room_name
       FROM human_requests h JOIN rooms r ON r.room_id = h.room_id
       WHERE h.status = 'open' AND r.archived_at IS NULL
       ORDER BY h.created_at DESC, h.number DESC, h.room_id LIMIT ?`,
    limit,
  );
}

export interface WaitingTaskRow extends QueueItemRow {
  status: 'in_review' | 'blocked';
  title: string;
  assignee: string | null;
  updated_at: string;
}

/**
 * Tasks in in_review or blocked across live rooms, most recently changed first, minus those
 * a person dismissed since their last change. In SQLite, CROSS JOIN keeps rooms outermost so
 * each room's tasks are looked up through tasks_board (room_id, status) instead of a full
 * scan; in PostgreSQL it is a plain inner join (the join condition is in WHERE for both).
 */
export function listWaitingTasksAcrossRooms(q: Queryable, reader: string, limit: number): Promise<WaitingTaskRow[]> {
  return q.all<WaitingTaskRow>(
    `SELECT t.room_id, r.display_name AS room_name, t.number, t.status, t.title, t.assignee, t.updated_at
       FROM rooms r CROSS JOIN tasks t
       WHERE t.room_id = r.room_id AND t.status IN ('in_review','blocked') AND r.archived_at IS NULL
         AND NOT EXISTS (
           SELECT 1 FROM needs_you_dismissals d
           WHERE d.room_id = t.room_id AND d.number = t.number AND d.reader_id = ?
             AND d.item_kind = CASE t.status WHEN 'in_review' THEN 'review' ELSE 'blocked' END
             AND d.dismissed_at >= t.updated_at)
       ORDER BY t.updated_at DESC, t.number DESC, t.room_id LIMIT ?`,
    reader, limit,
  );
}

export interface MentionCandidateRow extends QueueItemRow {
  sender: string;
  text: string;
  thread_root_number: number | null;
  created_at: string;
}

/**
 * The newest `limit` messages whose text matches `names` (full-text, through the dialect) and
 * that could still need the person: not the person's own (source human), not dismissed, and
 * not followed by a person's reply in the same thread. Callers confirm the @mention itself.
 */
export function listMentionCandidates(q: Queryable, names: TextQuery, reader: string, limit: number): Promise<MentionCandidateRow[]> {
  const match = q.dialect.textMatch('m', names);
  return q.all<MentionCandidateRow>(
    `SELECT m.room_id, r.display_name AS room_name, m.number, m.sender, m.text, m.thread_root_number, m.created_at
       FROM messages m JOIN rooms r ON r.room_id = m.room_id
       WHERE ${match.sql}
         AND m.source <> 'human' AND r.archived_at IS NULL
         AND NOT EXISTS (
           SELECT 1 FROM needs_you_dismissals d
           WHERE d.room_id = m.room_id AND d.item_kind = 'mention' AND d.number = m.number AND d.reader_id = ?)
         AND NOT EXISTS (
           SELECT 1 FROM messages h
           WHERE h.room_id = m.room_id AND h.thread_root_number = coalesce(m.thread_root_number, m.number)
             AND h.number > m.number AND h.source = 'human')
       ORDER BY m.rowid DESC LIMIT ?`,
    ...match.params, reader, limit,
  );
}

/** `reader` dismisses the item for themselves ('' on this computer, the app's host id in a team database). */
export async function insertDismissal(tx: Tx, roomId: string, kind: DismissableKind, number: number, reader: string): Promise<void> {
  await tx.run(
    `INSERT INTO needs_you_dismissals (room_id, item_kind, number, reader_id, dismissed_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (room_id, item_kind, number, reader_id) DO UPDATE SET dismissed_at = excluded.dismissed_at`,
    roomId, kind, number, reader, tx.now,
  );
}

const REQUESTS_SINCE_LIMIT = 100;

/** Requests of the room answered at or after `since`, oldest first. */
export function requestsAnsweredSince(q: Queryable, roomId: string, since: string): Promise<RequestRow[]> {
  return q.all<RequestRow>(
    "SELECT * FROM human_requests WHERE room_id = ? AND status = 'answered' AND answered_at >= ? ORDER BY answered_at, number LIMIT ?",
    roomId, since, REQUESTS_SINCE_LIMIT,
  );
}
