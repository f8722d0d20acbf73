// SQL for delivery you can see (issue 14): receipt spans per agent session (delivery_spans)
// and the token meter (token_meter). Portable SQL only; every list is bounded.
import type { Queryable, Tx } from './port';

export interface SpanRow {
  room_id: string;
  session_id: string;
  first_number: number;
  last_number: number;
  delivered_at: string;
  /** How many deliveries the span stands for: 1 means delivered_at is exact, more means "by then". */
  deliveries: number;
}

/** Most spans one read returns (a room's sessions × their spans stay far below it). */
const MAX_SPANS = 20_000;

/** The session's spans that overlap [first, last], in number order. */
export function selectSessionSpans(q: Queryable, roomId: string, sessionId: string, first: number, last: number): Promise<SpanRow[]> {
  return q.all<SpanRow>(
    `SELECT * FROM delivery_spans WHERE room_id = ? AND session_id = ? AND last_number >= ? AND first_number <= ?
     ORDER BY first_number LIMIT ?`,
    roomId, sessionId, first, last, MAX_SPANS,
  );
}

/** Every span of the session in the room, in number order. */
export function selectAllSessionSpans(q: Queryable, roomId: string, sessionId: string): Promise<SpanRow[]> {
  return q.all<SpanRow>('SELECT * FROM delivery_spans WHERE room_id = ? AND session_id = ? ORDER BY first_number LIMIT ?', roomId, sessionId, MAX_SPANS);
}

/** Spans of every session of the room that overlap [first, last]. */
export function selectRoomSpans(q: Queryable, roomId: string, first: number, last: number): Promise<SpanRow[]> {
  return q.all<SpanRow>(
    `SELECT * FROM delivery_spans WHERE room_id = ? AND last_number >= ? AND first_number <= ?
     ORDER BY session_id, first_number LIMIT ?`,
    roomId, first, last, MAX_SPANS,
  );
}

export async function countSessionSpans(q: Queryable, roomId: string, sessionId: string): Promise<number> {
  const row = await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM delivery_spans WHERE room_id = ? AND session_id = ?', roomId, sessionId);
  return row?.n ?? 0;
}

export async function insertSpan(tx: Tx, span: SpanRow): Promise<void> {
  await tx.run(
    `INSERT INTO delivery_spans (room_id, session_id, first_number, last_number, delivered_at, deliveries)
     VALUES (?, ?, ?, ?, ?, ?)`,
    span.room_id, span.session_id, span.first_number, span.last_number, span.delivered_at, span.deliveries,
  );
}

export async function deleteSpan(tx: Tx, roomId: string, sessionId: string, firstNumber: number): Promise<void> {
  await tx.run('DELETE FROM delivery_spans WHERE room_id = ? AND session_id = ? AND first_number = ?', roomId, sessionId, firstNumber);
}

export async function roomExists(q: Queryable, roomId: string): Promise<boolean> {
  return (await q.get('SELECT 1 AS one FROM rooms WHERE room_id = ?', roomId)) !== undefined;
}

// ---- token meter ----

export interface MeterRow {
  session_id: string;
  today: number;
  total: number;
}

/** Adds bytes (and `results` results) to a session's count for `day`; false (nothing stored) when the room is gone. */
export async function addMeterBytes(tx: Tx, roomId: string, sessionId: string, day: string, bytes: number, results: number): Promise<boolean> {
  // One statement, no separate read: the room's existence is part of the insert.
  const { changes } = await tx.run(
    `INSERT INTO token_meter (room_id, session_id, day, bytes, results)
     SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
     WHERE EXISTS (SELECT 1 FROM rooms WHERE room_id = ?)
     ON CONFLICT (room_id, session_id, day) DO UPDATE SET bytes = token_meter.bytes + excluded.bytes, results = token_meter.results + excluded.results`,
    roomId, sessionId, day, bytes, results, roomId,
  );
  return changes > 0;
}

/** Per session of the room ('' for calls without one): bytes on `day` and in total. */
export function selectRoomMeter(q: Queryable, roomId: string, day: string): Promise<MeterRow[]> {
  return q.all<MeterRow>(
    `SELECT session_id, SUM(CASE WHEN day = ? THEN bytes ELSE 0 END) AS today, SUM(bytes) AS total
     FROM token_meter WHERE room_id = ? GROUP BY session_id ORDER BY session_id LIMIT 10000`,
    day, roomId,
  );
}

/** Per session of every room: bytes on `day` and in total (the roster across rooms). */
export function selectAllMeters(q: Queryable, day: string): Promise<Array<MeterRow & { room_id: string }>> {
  return q.all<MeterRow & { room_id: string }>(
    `SELECT room_id, session_id, SUM(CASE WHEN day = ? THEN bytes ELSE 0 END) AS today, SUM(bytes) AS total
     FROM token_meter GROUP BY room_id, session_id ORDER BY room_id, session_id LIMIT 100000`,
    day,
  );
}

/** The room's bytes on `day`, every session together. */
export async function selectRoomBytesOn(q: Queryable, roomId: string, day: string): Promise<number> {
  const row = await q.get<{ n: number | null }>('SELECT SUM(bytes) AS n FROM token_meter WHERE room_id = ? AND day = ?', roomId, day);
  return row?.n ?? 0;
}
