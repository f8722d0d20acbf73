// Room rows and the per-room counters that number messages, tasks, facts, requests and
// artifacts. Counters are bumped inside the caller's write transaction, so numbers are
// dense in commit order and a rolled-back write uses none up.
import type { Db } from './database';
import type { Tx } from './store';

export interface RoomRow {
  room_id: string;
  kind: 'invite' | 'repo' | 'named';
  display_name: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  pinned_at: string | null;
  next_message_number: number;
  next_task_number: number;
}

export type RoomCounter =
  | 'next_message_number'
  | 'next_task_number'
  | 'next_fact_number'
  | 'next_request_number'
  | 'next_artifact_number'
  | 'next_alert_number';

export function getRoomRow(db: Db, roomId: string): RoomRow | undefined {
  return db.prepare('SELECT * FROM rooms WHERE room_id = ?').get(roomId) as RoomRow | undefined;
}

export function insertRoomRow(tx: Tx, room: { roomId: string; kind: RoomRow['kind']; displayName: string }): void {
  tx.db
    .prepare('INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
    .run(room.roomId, room.kind, room.displayName, tx.now, tx.now);
}

/** Takes the next number of `counter` in `roomId`. Must run inside a write. */
export function allocateNumber(tx: Tx, roomId: string, counter: RoomCounter): number {
  const row = tx.db
    .prepare(`UPDATE rooms SET ${counter} = ${counter} + 1 WHERE room_id = ? RETURNING ${counter} - 1 AS n`)
    .get(roomId) as { n: number } | undefined;
  if (!row) throw new Error(`allocateNumber: room ${roomId} does not exist`);
  return row.n;
}
