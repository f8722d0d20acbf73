// SQL for delivery you can see (issue 14): receipt spans per agent session (delivery_spans)
// and the token meter (token_meter). Portable SQL only; every list is bounded.
import type { Db } from './database';
import type { Tx } from './store';

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
export function selectSessionSpans(db: Db, roomId: string, sessionId: string, first: number, last: number): SpanRow[] {
  return db
    .prepare(
      `SELECT * FROM delivery_spans WHERE room_id = ? AND session_id = ? AND last_number >= ? AND first_number <= ?
       ORDER BY first_number LIMIT ?`,
    )
    .all(roomId, sessionId, first, last, MAX_SPANS) as SpanRow[];
}

/** Every span of the session in the room, in number order. */
export function selectAllSessionSpans(db: Db, roomId: string, sessionId: string): SpanRow[] {
  return db
    .prepare('SELECT * FROM delivery_spans WHERE room_id = ? AND session_id = ? ORDER BY first_number LIMIT ?')
    .all(roomId, sessionId, MAX_SPANS) as SpanRow[];
}

/** Spans of every session of the room that overlap [first, last]. */
export function selectRoomSpans(db: Db, roomId: string, first: number, last: number): SpanRow[] {
  return db
    .prepare(
      `SELECT * FROM delivery_spans WHERE room_id = ? AND last_number >= ? AND first_number <= ?
       ORDER BY session_id, first_number LIMIT ?`,
    )
    .all(roomId, first, last, MAX_SPANS) as SpanRow[];
}

export function countSessionSpans(db: Db, roomId: string, sessionId: string): number {
  const row = db.prepare('SELECT COUNT(*) AS n FROM delivery_spans WHERE room_id = ? AND session_id = ?').get(roomId, sessionId) as { n: number };
  return row.n;
}

export function insertSpan(tx: Tx, span: SpanRow): void {
  tx.db
    .prepare(
      `INSERT INTO delivery_spans (room_id, session_id, first_number, last_number, delivered_at, deliveries)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .run(span.room_id, span.session_id, span.first_number, span.last_number, span.delivered_at, span.deliveries);
}

export function deleteSpan(tx: Tx, roomId: string, sessionId: string, firstNumber: number): void {
  tx.db.prepare('DELETE FROM delivery_spans WHERE room_id = ? AND session_id = ? AND first_number = ?').run(roomId, sessionId, firstNumber);
}

export function roomExists(db: Db, roomId: string): boolean {
  return db.prepare('SELECT 1 AS one FROM rooms WHERE room_id = ?').get(roomId) !== undefined;
}

// ---- token meter ----

export interface MeterRow {
  session_id: string;
  today: number;
  total: number;
}

/** Adds bytes (and `results` results) to a session's count for `day`; false (nothing stored) when the room is gone. */
export function addMeterBytes(tx: Tx, roomId: string, sessionId: string, day: string, bytes: number, results: number): boolean {
  // One statement, no separate read: the room's existence is part of the insert.
  return (
    tx.db
      .prepare(
        `INSERT INTO token_meter (room_id, session_id, day, bytes, results)
         SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
         WHERE EXISTS (SELECT 1 FROM rooms WHERE room_id = ?)
         ON CONFLICT (room_id, session_id, day) DO UPDATE SET bytes = token_meter.bytes + excluded.bytes, results = token_meter.results + excluded.results`,
      )
      .run(roomId, sessionId, day, bytes, results, roomId).changes > 0
  );
}

/** Per session of the room ('' for calls without one): bytes on `day` and in total. */
export function selectRoomMeter(db: Db, roomId: string, day: string): MeterRow[] {
  return db
    .prepare(
      `SELECT session_id, SUM(CASE WHEN day = ? THEN bytes ELSE 0 END) AS today, SUM(bytes) AS total
       FROM token_meter WHERE room_id = ? GROUP BY session_id ORDER BY session_id LIMIT 10000`,
    )
    .all(day, roomId) as MeterRow[];
}

/** Per session of every room: bytes on `day` and in total (the roster across rooms). */
export function selectAllMeters(db: Db, day: string): Array<MeterRow & { room_id: string }> {
  return db
    .prepare(
      `SELECT room_id, session_id, SUM(CASE WHEN day = ? THEN bytes ELSE 0 END) AS today, SUM(bytes) AS total
       FROM token_meter GROUP BY room_id, session_id ORDER BY room_id, session_id LIMIT 100000`,
    )
    .all(day) as Array<MeterRow & { room_id: string }>;
}

/** The room's bytes on `day`, every session together. */
export function selectRoomBytesOn(db: Db, roomId: string, day: string): number {
  const row = db.prepare('SELECT SUM(bytes) AS n FROM token_meter WHERE room_id = ? AND day = ?').get(roomId, day) as { n: number | null };
  return row.n ?? 0;
}
