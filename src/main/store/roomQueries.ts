// Room queries beyond insert and numbering: the sidebar list, person actions (rename,
// archive, pin, delete), read markers, and the saved room sessions of MCP clients. A read
// marker belongs to a reader: '' on this computer, the app's host id in a team database
// (each person of a team reads for themselves).
import type { Queryable, Tx } from './port';
import { ROOM_COUNTERS, type RoomRow } from './rooms';
import { NOT_PROMPT_ONLY } from './messageQueries';

export interface RoomListRow extends RoomRow {
  latest_number: number | null;
  latest_at: string | null;
  last_read_number: number;
}

/** A room with the reader's read marker (the first placeholder) and its newest message, as the sidebar lists it. */
export const ROOM_LIST_SELECT = `SELECT r.*, COALESCE(rr.last_read_number, 0) AS last_read_number,
    (SELECT m.number FROM messages m WHERE m.room_id = r.room_id ORDER BY m.number DESC LIMIT 1) AS latest_number,
    (SELECT m.created_at FROM messages m WHERE m.room_id = r.room_id ORDER BY m.number DESC LIMIT 1) AS latest_at
  FROM rooms r LEFT JOIN room_reads rr ON rr.room_id = r.room_id AND rr.reader_id = ?`;

/** The sidebar's order of ROOM_LIST_SELECT's rows: live before archived, pinned first, then by latest activity. */
export const ROOM_LIST_ORDER = '(archived_at IS NOT NULL), (pinned_at IS NULL), COALESCE(latest_at, created_at) DESC, room_id';

/** The room list's columns that hold integers, besides the room's counters. */
export const ROOM_LIST_NUMBERS = [...ROOM_COUNTERS, 'latest_number', 'last_read_number'] as const;

/** Rooms for the sidebar, in its order. */
export function selectRoomList(q: Queryable, reader: string, limit: number): Promise<RoomListRow[]> {
  // A derived table, so ORDER BY may use latest_at inside an expression (PostgreSQL allows
  // an output column's name there only on its own).
  return q.all<RoomListRow>(`SELECT * FROM (${ROOM_LIST_SELECT}) AS room_list ORDER BY ${ROOM_LIST_ORDER} LIMIT ?`, reader, limit);
}

export function selectRoomListRow(q: Queryable, reader: string, roomId: string): Promise<RoomListRow | undefined> {
  return q.get<RoomListRow>(`${ROOM_LIST_SELECT} WHERE r.room_id = ?`, reader, roomId);
}

/**
 * Messages after `afterNumber` a person has not seen, counted up to `cap`: the person's own
 * messages, the events of their own actions (a system event no agent published: every
 * event names who caused it, and only people act without an agent key) and prompt-only
 * rows do not count.
 */
export async function countUnread(q: Queryable, roomId: string, afterNumber: number, cap: number): Promise<number> {
  const row = await q.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM (SELECT 1 AS one FROM messages WHERE room_id = ? AND number > ?
         AND source != 'human' AND NOT (source = 'system' AND publisher_agent_key IS NULL) AND ${NOT_PROMPT_ONLY} LIMIT ?) AS unread`,
    roomId, afterNumber, cap,
  );
  return row?.n ?? 0;
}

export async function updateRoomDisplayName(tx: Tx, roomId: string, displayName: string): Promise<void> {
  await tx.run(
    'UPDATE rooms SET display_name = ?, updated_at = ? WHERE room_id = ?',
    displayName, tx.now, roomId,
  );
}

export async function updateRoomArchivedAt(tx: Tx, roomId: string, archivedAt: string | null): Promise<void> {
  await tx.run(
    'UPDATE rooms SET archived_at = ?, updated_at = ? WHERE room_id = ?',
    archivedAt, tx.now, roomId,
  );
}

export async function updateRoomPinnedAt(tx: Tx, roomId: string, pinnedAt: string | null): Promise<void> {
  await tx.run('UPDATE rooms SET pinned_at = ?, updated_at = ? WHERE room_id = ?', pinnedAt, tx.now, roomId);
}

/**
 * Deletes the room; foreign keys cascade to every table that holds its data. Clients' saved
 * sessions of it are kept on this computer's database, so only a local room's go with it
 * (in a team database the statement finds none; a client finds a team room gone on resume).
 */
export async function deleteRoomRow(tx: Tx, roomId: string): Promise<void> {
  await tx.run('DELETE FROM rooms WHERE room_id = ?', roomId);
  await tx.run("DELETE FROM client_room_sessions WHERE place = 'local' AND room_id = ?", roomId);
}

export async function selectLastReadNumber(q: Queryable, roomId: string, reader: string): Promise<number> {
  const row = await q.get<{ last_read_number: number }>(
    'SELECT last_read_number FROM room_reads WHERE room_id = ? AND reader_id = ?',
    roomId, reader,
  );
  return row?.last_read_number ?? 0;
}

export async function upsertLastReadNumber(tx: Tx, roomId: string, reader: string, number: number): Promise<void> {
  await tx.run(
    `INSERT INTO room_reads (room_id, reader_id, last_read_number) VALUES (?, ?, ?)
       ON CONFLICT (room_id, reader_id) DO UPDATE SET last_read_number = excluded.last_read_number`,
    roomId, reader, number,
  );
}

// ---- saved room sessions of MCP clients (kept on this computer, with each room's place) ----

export interface ClientRoomSessionRow {
  client_key: string;
  place: string;
  room_id: string;
  joined_via: string;
  last_message_id: string | null;
  last_seen_at: string;
  is_current: 0 | 1;
}

export async function upsertClientRoomSession(tx: Tx, clientKey: string, place: string, roomId: string, joinedVia: string): Promise<void> {
  await tx.run(
    `INSERT INTO client_room_sessions (client_key, place, room_id, joined_via, last_seen_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (client_key, place, room_id) DO UPDATE SET joined_via = excluded.joined_via, last_seen_at = excluded.last_seen_at`,
    clientKey, place, roomId, joinedVia, tx.now,
  );
}

export async function setCurrentClientRoom(tx: Tx, clientKey: string, place: string, roomId: string): Promise<void> {
  await tx.run(
    `UPDATE client_room_sessions SET is_current = CASE WHEN place = ? AND room_id = ? THEN 1 ELSE 0 END
     WHERE client_key = ? AND (is_current = 1 OR (place = ? AND room_id = ?))`,
    place, roomId, clientKey, place, roomId,
  );
}

export function selectCurrentClientRoom(q: Queryable, clientKey: string): Promise<ClientRoomSessionRow | undefined> {
  return q.get<ClientRoomSessionRow>(
    'SELECT * FROM client_room_sessions WHERE client_key = ? AND is_current = 1 LIMIT 1',
    clientKey,
  );
}

/** The client's saved session of `roomId`: in `place`, or (no place given) the one it joined most recently. */
export function selectClientRoomSession(q: Queryable, clientKey: string, roomId: string, place: string | null): Promise<ClientRoomSessionRow | undefined> {
  return q.get<ClientRoomSessionRow>(
    `SELECT * FROM client_room_sessions WHERE client_key = ? AND room_id = ? AND (CAST(? AS TEXT) IS NULL OR place = ?)
     ORDER BY last_seen_at DESC LIMIT 1`,
    clientKey, roomId, place, place,
  );
}

export async function updateClientCursor(tx: Tx, clientKey: string, place: string, roomId: string, lastMessageId: string): Promise<void> {
  await tx.run(
    'UPDATE client_room_sessions SET last_message_id = ?, last_seen_at = ? WHERE client_key = ? AND place = ? AND room_id = ?',
    lastMessageId, tx.now, clientKey, place, roomId,
  );
}
