// SQL for the "Needs you" items the app raises itself (needs_you_alerts): unanswered
// messages, untouched tasks, a paused loop, a used-up budget. Portable SQL; lists bounded.
import type { Queryable, Tx } from './port';

export type AlertKind = 'unanswered' | 'idle_task' | 'loop' | 'room_budget' | 'agent_budget' | 'automation';
export type AlertStatus = 'open' | 'resolved' | 'dismissed';

export interface AlertRow {
  room_id: string;
  number: number;
  kind: AlertKind;
  subject: string;
  session_id: string | null;
  message_number: number | null;
  task_number: number | null;
  title: string;
  body: string;
  detail_json: string;
  status: AlertStatus;
  created_at: string;
  updated_at: string;
}

export interface OpenAlertQueueRow extends AlertRow {
  room_name: string;
}

export type NewAlertRow = Omit<AlertRow, 'status' | 'created_at' | 'updated_at'>;

const MAX_ALERTS = 10_000;

/** Inserts an open alert; false (nothing stored) when the room already had one for this kind and subject. */
export async function insertAlertRow(tx: Tx, row: NewAlertRow): Promise<boolean> {
  const { changes } = await tx.run(
    `INSERT INTO needs_you_alerts (room_id, number, kind, subject, session_id, message_number, task_number, title, body, detail_json,
       status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)
     ON CONFLICT (room_id, kind, subject) DO NOTHING`,
    row.room_id, row.number, row.kind, row.subject, row.session_id, row.message_number, row.task_number,
    row.title, row.body, row.detail_json, tx.now, tx.now,
  );
  return changes > 0;
}

export async function alertExists(q: Queryable, roomId: string, kind: AlertKind, subject: string): Promise<boolean> {
  return (await q.get('SELECT 1 AS one FROM needs_you_alerts WHERE room_id = ? AND kind = ? AND subject = ?', roomId, kind, subject)) !== undefined;
}

export function getAlertRow(q: Queryable, roomId: string, number: number): Promise<AlertRow | undefined> {
  return q.get<AlertRow>('SELECT * FROM needs_you_alerts WHERE room_id = ? AND number = ?', roomId, number);
}

/** Open alerts of one kind, in every room or one, oldest first. */
export function listOpenAlerts(q: Queryable, kind: AlertKind, roomId: string | null = null): Promise<AlertRow[]> {
  return q.all<AlertRow>(
    `SELECT * FROM needs_you_alerts WHERE status = 'open' AND kind = ? AND (CAST(? AS TEXT) IS NULL OR room_id = ?)
     ORDER BY created_at, room_id, number LIMIT ?`,
    kind, roomId, roomId, MAX_ALERTS,
  );
}

/** Open alerts across live (not archived) rooms, newest first (ties by room: numbers repeat across rooms). */
export function listOpenAlertsAcrossRooms(q: Queryable, limit: number): Promise<OpenAlertQueueRow[]> {
  return q.all<OpenAlertQueueRow>(
    `SELECT a.*, r.display_name AS room_name FROM needs_you_alerts a JOIN rooms r ON r.room_id = a.room_id
     WHERE a.status = 'open' AND r.archived_at IS NULL
     ORDER BY a.created_at DESC, a.number DESC, a.room_id LIMIT ?`,
    limit,
  );
}

/** Closes an open alert; false when it was not open. */
export async function closeAlertRow(tx: Tx, roomId: string, number: number, status: 'resolved' | 'dismissed'): Promise<boolean> {
  const { changes } = await tx.run(
    "UPDATE needs_you_alerts SET status = ?, updated_at = ? WHERE room_id = ? AND number = ? AND status = 'open'",
    status, tx.now, roomId, number,
  );
  return changes > 0;
}

export async function updateAlertDetail(tx: Tx, roomId: string, number: number, fields: { body: string; detail_json: string }): Promise<void> {
  await tx.run(
    'UPDATE needs_you_alerts SET body = ?, detail_json = ?, updated_at = ? WHERE room_id = ? AND number = ?',
    fields.body, fields.detail_json, tx.now, roomId, number,
  );
}
