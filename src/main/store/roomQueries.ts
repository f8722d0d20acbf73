// Room queries beyond insert and numbering: the sidebar list, person actions (rename,
// archive, pin, delete), read markers, and the saved room sessions of MCP clients.
import type { Db } from './database';
import type { Tx } from './store';
import type { RoomRow } from './rooms';
import { NOT_PROMPT_ONLY } from './messageQueries';

export interface RoomListRow extends RoomRow {
  latest_number: number | null;
  latest_at: string | null;
  last_read_number: number;
}

/** Rooms for the sidebar: live before archived, pinned first, then by latest activity. */
/** A room with its read marker and newest message, as the sidebar lists it. */
const ROOM_LIST_SELECT = `SELECT r.*, COALESCE(rr.last_read_number, 0) AS last_read_number,
    (SELECT m.number FROM messages m WHERE m.room_id = r.room_id ORDER BY m.number DESC LIMIT 1) AS latest_number,
    (SELECT m.created_at FROM messages m WHERE m.room_id = r.room_id ORDER BY m.number DESC LIMIT 1) AS latest_at
  FROM rooms r LEFT JOIN room_reads rr ON rr.room_id = r.room_id`;

export function selectRoomList(db: Db, limit: number): RoomListRow[] {
  return db
    .prepare(`${ROOM_LIST_SELECT} ORDER BY (r.archived_at IS NOT NULL), (r.pinned_at IS NULL), COALESCE(latest_at, r.created_at) DESC, r.room_id LIMIT ?`)
    .all(limit) as RoomListRow[];
}

export function selectRoomListRow(db: Db, roomId: string): RoomListRow | undefined {
  return db.prepare(`${ROOM_LIST_SELECT} WHERE r.room_id = ?`).get(roomId) as RoomListRow | undefined;
}

/**
 * Messages after `afterNumber` a person has not seen, counted up to `cap`: the person's own
 * messages, the events of their own actions (a system event no agent published: every
 * event names who caused it, and only people act without an agent key) and prompt-only
 * rows do not count.
 */
export function countUnread(db: Db, roomId: string, afterNumber: number, cap: number): number {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS n FROM (SELECT 1 FROM messages WHERE room_id = ? AND number > ?
         AND source != 'human' AND NOT (source = 'system' AND publisher_agent_key IS NULL) AND ${NOT_PROMPT_ONLY} LIMIT ?)`,
    )
    .get(roomId, afterNumber, cap) as { n: number };
  return row.n;
}

export function updateRoomDisplayName(tx: Tx, roomId: string, displayName: string): void {
  tx.db.prepare('UPDATE rooms SET display_name = ?, updated_at = ? WHERE room_id = ?').run(displayName, tx.now, roomId);
}

export function updateRoomArchivedAt(tx: Tx, roomId: string, archivedAt: string | null): void {
  tx.db.prepare('UPDATE rooms SET archived_at = ?, updated_at = ? WHERE room_id = ?').run(archivedAt, tx.now, roomId);
}

export function updateRoomPinnedAt(tx: Tx, roomId: string, pinnedAt: string | null): void {
  tx.db.prepare('UPDATE rooms SET pinned_at = ?, updated_at = ? WHERE room_id = ?').run(pinnedAt, tx.now, roomId);
}

/** Paths of the room's attachment files, so they can be removed after the room is deleted. */
export function selectRoomAttachmentPaths(db: Db, roomId: string): string[] {
  return (db.prepare('SELECT path FROM attachments WHERE room_id = ?').pluck().all(roomId) as string[]);
}

/** Deletes the room; foreign keys cascade to every table that holds its data. */
export function deleteRoomRow(tx: Tx, roomId: string): void {
  tx.db.prepare('DELETE FROM rooms WHERE room_id = ?').run(roomId);
}

export function selectLastReadNumber(db: Db, roomId: string): number {
  const row = db.prepare('SELECT last_read_number FROM room_reads WHERE room_id = ?').get(roomId) as
    | { last_read_number: number }
    | undefined;
  return row?.last_read_number ?? 0;
}

export function upsertLastReadNumber(tx: Tx, roomId: string, number: number): void {
  tx.db
    .prepare(
      `INSERT INTO room_reads (room_id, last_read_number) VALUES (?, ?)
       ON CONFLICT (room_id) DO UPDATE SET last_read_number = excluded.last_read_number`,
    )
    .run(roomId, number);
}

// ---- saved room sessions of MCP clients ----

export interface ClientRoomSessionRow {
  client_key: string;
  room_id: string;
  joined_via: string;
  last_message_id: string | null;
  last_seen_at: string;
  is_current: 0 | 1;
}

export function upsertClientRoomSession(tx: Tx, clientKey: string, roomId: string, joinedVia: string): void {
  tx.db
    .prepare(
      `INSERT INTO client_room_sessions (client_key, room_id, joined_via, last_seen_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (client_key, room_id) DO UPDATE SET joined_via = excluded.joined_via, last_seen_at = excluded.last_seen_at`,
    )
    .run(clientKey, roomId, joinedVia, tx.now);
}

export function setCurrentClientRoom(tx: Tx, clientKey: string, roomId: string): void {
  tx.db
    .prepare('UPDATE client_room_sessions SET is_current = (room_id = ?) WHERE client_key = ? AND (is_current = 1 OR room_id = ?)')
    .run(roomId, clientKey, roomId);
}

export function selectCurrentClientRoom(db: Db, clientKey: string): ClientRoomSessionRow | undefined {
  return db
    .prepare('SELECT * FROM client_room_sessions WHERE client_key = ? AND is_current = 1 LIMIT 1')
    .get(clientKey) as ClientRoomSessionRow | undefined;
}

export function selectClientRoomSession(db: Db, clientKey: string, roomId: string): ClientRoomSessionRow | undefined {
  return db
    .prepare('SELECT * FROM client_room_sessions WHERE client_key = ? AND room_id = ?')
    .get(clientKey, roomId) as ClientRoomSessionRow | undefined;
}

export function updateClientCursor(tx: Tx, clientKey: string, roomId: string, lastMessageId: string): void {
  tx.db
    .prepare('UPDATE client_room_sessions SET last_message_id = ?, last_seen_at = ? WHERE client_key = ? AND room_id = ?')
    .run(lastMessageId, tx.now, clientKey, roomId);
}
