// Receipts stored as spans (issue 14): a delivery covers what was not covered yet (the first
// delivery's time wins), overlapping and out-of-order deliveries keep exact times, a busy
// session's older contiguous spans fold into one ("by then") so rows stay bounded, and what
// no span covers reads as not delivered.
import { describe, expect, it } from 'vitest';
import { RoomReceipts, recordDeliveries, uncovered, type Delivery } from '../../../../src/main/domain/delivery/receipts';
import { makeStore, namedRoom, post, type TestStore } from '../messages/testStore';

const spans = (t: TestStore, sessionId = 's1') =>
  t.db.prepare('SELECT first_number AS first, last_number AS last, delivered_at AS at, deliveries FROM delivery_spans WHERE session_id = ? ORDER BY first_number').all(sessionId);

const delivery = (first: number, last: number, at: string, sessionId = 's1', roomId = 'team'): Delivery => ({ roomId, sessionId, first, last, at });

describe('uncovered', () => {
  it('returns the parts of a range no span covers', () => {
    expect(uncovered(1, 10, [])).toEqual([[1, 10]]);
    expect(uncovered(1, 10, [{ first_number: 3, last_number: 4 }, { first_number: 8, last_number: 12 }])).toEqual([[1, 2], [5, 7]]);
    expect(uncovered(5, 6, [{ first_number: 1, last_number: 9 }])).toEqual([]);
  });
});

describe('recording deliveries', () => {
  it('keeps the first delivery time of each message, adds only what is new, and tells the UI which range changed', async () => {
    const t = makeStore();
    await namedRoom(t);
    for (let i = 0; i < 10; i++) await post(t, 'team', `m${i}`);
    t.events.length = 0;
    await t.write((tx) => recordDeliveries(tx, [delivery(5, 8, 'T1')]));
    // A read of the newest 10 later: 1–4 and 9–10 are new, 5–8 keep T1.
    await t.write((tx) => recordDeliveries(tx, [delivery(1, 10, 'T2')]));
    expect(spans(t)).toEqual([
      { first: 1, last: 4, at: 'T2', deliveries: 1 },
      { first: 5, last: 8, at: 'T1', deliveries: 1 },
      { first: 9, last: 10, at: 'T2', deliveries: 1 },
    ]);
    expect(t.events).toEqual([
      { type: 'message.receipts', place: 'local', roomId: 'team', sessionId: 's1', first: 5, last: 8 },
      { type: 'message.receipts', place: 'local', roomId: 'team', sessionId: 's1', first: 1, last: 10 },
    ]);
    // Nothing new: no row, no event.
    t.events.length = 0;
    await t.write((tx) => recordDeliveries(tx, [delivery(2, 9, 'T3')]));
    expect(t.events).toEqual([]);
    const receipts = await RoomReceipts.load(t.q, 'team', 1, 10);
    expect(receipts.of('s1', 6)).toEqual({ at: 'T1', exact: true });
    expect(receipts.of('s1', 10)).toEqual({ at: 'T2', exact: true });
    expect(receipts.of('s2', 6)).toBeNull();
  });

  it('ignores a room that is gone instead of failing the whole batch', async () => {
    const t = makeStore();
    await namedRoom(t);
    await post(t, 'team', 'hello');
    await t.write((tx) => recordDeliveries(tx, [delivery(1, 1, 'T1', 's1', 'gone'), delivery(1, 1, 'T1')]));
    expect(spans(t)).toEqual([{ first: 1, last: 1, at: 'T1', deliveries: 1 }]);
  });

  it("folds a busy session's older contiguous spans, keeping the newest exact and every gap", async () => {
    const t = makeStore();
    await namedRoom(t);
    // 100 waits of one message each, as an agent looping on wait_for_messages; message 50 never reached it.
    const batch: Delivery[] = [];
    for (let n = 1; n <= 100; n++) if (n !== 50) batch.push(delivery(n, n, `T${String(n).padStart(3, '0')}`));
    for (const d of batch) await t.write((tx) => recordDeliveries(tx, [d]));
    const rows = spans(t) as Array<{ first: number; last: number; at: string; deliveries: number }>;
    expect(rows.length).toBeLessThanOrEqual(64);
    const receipts = await RoomReceipts.load(t.q, 'team', 1, 100);
    expect(receipts.of('s1', 50)).toBeNull();
    // Old ones read "by then", the newest keep their own time.
    expect(receipts.of('s1', 2)?.exact).toBe(false);
    expect(receipts.of('s1', 100)).toEqual({ at: 'T100', exact: true });
    for (let n = 1; n <= 100; n++) if (n !== 50) expect(receipts.of('s1', n), `msg ${n}`).not.toBeNull();
    expect(rows.reduce((sum, r) => sum + r.deliveries, 0)).toBe(99);
  });
});
