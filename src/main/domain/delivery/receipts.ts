// Receipts (issue 14): which messages reached which agent session. A message is delivered
// to a session when one of our tools returned it to that session: read_messages (every
// message it returned) or wait_for_messages (the messages it returned; the silent ones it
// skipped route to no one, so they need no receipt). Writes return no news, so they
// deliver nothing. Stored as spans of message numbers per session (delivery_spans), never
// a row per message × agent: each delivery adds the part of its range not yet covered,
// with its time; once a session has many spans, the older contiguous ones fold into one
// (its time becomes "by then"), so the lowest span is the session's cursor and the rest
// are the exceptions above it. Whatever no span covers was not delivered.
import {
  countSessionSpans, deleteSpan, insertSpan, roomExists, selectAllSessionSpans, selectRoomSpans, selectSessionSpans, type SpanRow,
} from '../../store/deliveryQueries';
import type { Queryable, Tx } from '../../store/port';

/** One delivery: every message in [first, last] that routes to the session reached it at `at`. */
export interface Delivery {
  readonly roomId: string;
  readonly sessionId: string;
  readonly first: number;
  readonly last: number;
  readonly at: string;
}

/** Past this many spans a session's older spans fold; the newest KEEP_EXACT keep their exact times. */
const FOLD_ABOVE = 64;
const KEEP_EXACT = 32;

/** Stores a batch of deliveries; emits `message.receipts` per room and session that gained a receipt. */
export async function recordDeliveries(tx: Tx, deliveries: readonly Delivery[]): Promise<void> {
  const changed = new Map<string, { roomId: string; sessionId: string; first: number; last: number }>();
  const rooms = new Map<string, boolean>();
  for (const d of deliveries) {
    if (d.last < d.first) continue;
    let exists = rooms.get(d.roomId);
    if (exists === undefined) rooms.set(d.roomId, (exists = await roomExists(tx, d.roomId)));
    if (!exists || !(await recordDelivery(tx, d))) continue;
    const key = `${d.roomId}\n${d.sessionId}`;
    const seen = changed.get(key);
    changed.set(key, seen ? { ...seen, first: Math.min(seen.first, d.first), last: Math.max(seen.last, d.last) } : { roomId: d.roomId, sessionId: d.sessionId, first: d.first, last: d.last });
  }
  for (const c of changed.values()) tx.emit({ type: 'message.receipts', ...c });
}

/** Adds what `d` covers that no span covered yet (the first delivery's time wins); true when something was new. */
async function recordDelivery(tx: Tx, d: Delivery): Promise<boolean> {
  const pieces = uncovered(d.first, d.last, await selectSessionSpans(tx, d.roomId, d.sessionId, d.first, d.last));
  for (const [first, last] of pieces) {
    await insertSpan(tx, { room_id: d.roomId, session_id: d.sessionId, first_number: first, last_number: last, delivered_at: d.at, deliveries: 1 });
  }
  if (pieces.length > 0 && (await countSessionSpans(tx, d.roomId, d.sessionId)) > FOLD_ABOVE) await fold(tx, d.roomId, d.sessionId);
  return pieces.length > 0;
}

/** The parts of [first, last] that none of `spans` (sorted by first_number) covers. */
export function uncovered(first: number, last: number, spans: readonly Pick<SpanRow, 'first_number' | 'last_number'>[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = first;
  for (const span of spans) {
    if (span.last_number < from) continue;
    if (span.first_number > last) break;
    if (span.first_number > from) out.push([from, span.first_number - 1]);
    from = Math.max(from, span.last_number + 1);
    if (from > last) return out;
  }
  if (from <= last) out.push([from, last]);
  return out;
}

/** Folds runs of contiguous spans below the newest KEEP_EXACT into one span each. */
async function fold(tx: Tx, roomId: string, sessionId: string): Promise<void> {
  const spans = await selectAllSessionSpans(tx, roomId, sessionId);
  const older = spans.slice(0, Math.max(0, spans.length - KEEP_EXACT));
  let run: SpanRow[] = [];
  const flush = async () => {
    if (run.length > 1) {
      for (const span of run) await deleteSpan(tx, roomId, sessionId, span.first_number);
      await insertSpan(tx, {
        room_id: roomId,
        session_id: sessionId,
        first_number: run[0].first_number,
        last_number: run.at(-1)!.last_number,
        delivered_at: run.reduce((latest, s) => (s.delivered_at > latest ? s.delivered_at : latest), run[0].delivered_at),
        deliveries: run.reduce((sum, s) => sum + s.deliveries, 0),
      });
    }
    run = [];
  };
  for (const span of older) {
    if (run.length > 0 && run.at(-1)!.last_number + 1 !== span.first_number) await flush();
    run.push(span);
  }
  await flush();
}

/** When a message reached a session: the time, and whether it is exact (false: "by then"). */
export interface Receipt {
  readonly at: string;
  readonly exact: boolean;
}

/** The receipts of messages [first, last] of a room, per session. */
export class RoomReceipts {
  private readonly bySession = new Map<string, SpanRow[]>();

  constructor(spans: readonly SpanRow[]) {
    for (const span of spans) {
      const list = this.bySession.get(span.session_id);
      if (list) list.push(span);
      else this.bySession.set(span.session_id, [span]);
    }
  }

  static async load(q: Queryable, roomId: string, first: number, last: number): Promise<RoomReceipts> {
    return new RoomReceipts(await selectRoomSpans(q, roomId, first, last));
  }

  /** The receipt of message `number` for the session, or null when it was not delivered to it. */
  of(sessionId: string, number: number): Receipt | null {
    const span = this.bySession.get(sessionId)?.find((s) => s.first_number <= number && number <= s.last_number);
    return span ? { at: span.delivered_at, exact: span.deliveries === 1 } : null;
  }
}
