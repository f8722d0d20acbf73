// Room rows and the per-room counters that number messages, tasks, facts, requests and
// artifacts. Counters are bumped inside the caller's write transaction, so numbers are
// dense in commit order and a rolled-back write uses none up.
import type { Queryable, Tx } from './port';

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
  /** How a person's @all is answered: 'in_turn' | 'all_at_once' (checked by the app, migration 15). */
  reply_to_all: string;
}

/** A room's numbering counters (one BIGINT column each). */
export const ROOM_COUNTERS = [
  'next_message_number',
  'next_task_number',
  'next_fact_number',
  'next_request_number',
  'next_artifact_number',
  'next_alert_number',
] as const;
export type RoomCounter = (typeof ROOM_COUNTERS)[number];

export function getRoomRow(q: Queryable, roomId: string): Promise<RoomRow | undefined> {
  return q.get<RoomRow>('SELECT * FROM rooms WHERE room_id = ?', roomId);
}

/** The ids of the rooms that are not archived (for "did you mean"), of one kind or every kind. */
export async function listOpenRoomIds(q: Queryable, kind?: RoomRow['kind']): Promise<string[]> {
  const rows = kind
    ? await q.all<{ room_id: string }>('SELECT room_id FROM rooms WHERE archived_at IS NULL AND kind = ?', kind)
    : await q.all<{ room_id: string }>('SELECT room_id FROM rooms WHERE archived_at IS NULL');
  return rows.map((row) => row.room_id);
}

export async function insertRoomRow(tx: Tx, room: { roomId: string; kind: RoomRow['kind']; displayName: string }): Promise<void> {
  await tx.run(
    'INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    room.roomId, room.kind, room.displayName, tx.now, tx.now,
  );
}

/** Takes the next number of `counter` in `roomId`. Must run inside a write. */
export async function allocateNumber(tx: Tx, roomId: string, counter: RoomCounter): Promise<number> {
  const row = await tx.get<{ n: number }>(
    `UPDATE rooms SET ${counter} = ${counter} + 1 WHERE room_id = ? RETURNING ${counter} - 1 AS n`,
    roomId,
  );
  if (!row) throw new Error(`allocateNumber: room ${roomId} does not exist`);
  return row.n;
}
