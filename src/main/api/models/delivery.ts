// Delivery as the UI shows it (issue 14): receipts under messages, the token meter of
// sessions and rooms, and a room's budget and loop-guard pause.
import type { MessageReceipts, RoomDelivery } from '../../../shared/model/delivery';
import type { Meter } from '../../../shared/model/workers';
import type { App } from '../../app';
import { reachabilityOf } from '../../delivery/reachabilityOf';
import { getMessageRow, isPromptOnly } from '../../domain/messages/read';
import { listRoomSessions } from '../../domain/sessions/sessions';
import { messageRecipients } from '../../mcp/messageStatus';
import type { Db } from '../../store/database';
import { selectAllMeters, selectRoomMeter } from '../../store/deliveryQueries';

/** The receipts of the given messages of a room (people-visible ones; others are left out). */
export function receiptsOf(app: App, db: Db, roomId: string, numbers: readonly number[]): MessageReceipts[] {
  const rows = [...new Set(numbers)].flatMap((n) => {
    const row = getMessageRow(db, roomId, n);
    return row && !isPromptOnly(row) ? [row] : [];
  });
  const recipients = messageRecipients(app.hub.services, roomId, rows);
  return rows.map((row) => {
    const list = recipients.get(row.number) ?? [];
    return {
      number: row.number,
      seen: list.filter((r) => r.receipt).map((r) => ({ sessionId: r.session.session_id, name: r.session.display_name, at: r.receipt!.at, exact: r.receipt!.exact })),
      waiting: list
        .filter((r) => !r.receipt)
        .map((r) => ({ sessionId: r.session.session_id, name: r.session.display_name, reachability: reachabilityOf(db, app.hub.delivery, r.session) })),
    };
  });
}

const zero = (): Meter => ({ todayBytes: 0, totalBytes: 0 });

/** Each session's meter in one room (stored plus not yet written), and the room's. */
export function roomMeters(app: App, db: Db, roomId: string): { room: Meter; sessions: Map<string, Meter> } {
  const meter = app.hub.delivery.meter;
  const sessions = new Map<string, Meter>();
  const room = zero();
  const add = (sessionId: string, today: number, total: number) => {
    const m = sessions.get(sessionId) ?? zero();
    sessions.set(sessionId, { todayBytes: m.todayBytes + today, totalBytes: m.totalBytes + total });
    room.todayBytes += today;
    room.totalBytes += total;
  };
  for (const row of selectRoomMeter(db, roomId, meter.day())) add(row.session_id, row.today, row.total);
  for (const [key, bytes] of meter.pendingBySession()) if (key.startsWith(`${roomId}\n`)) add(key.slice(roomId.length + 1), bytes, bytes);
  return { room, sessions };
}

/** Every session's meter across rooms, keyed "<room>\n<session>" (the roster on the Agents page). */
export function allSessionMeters(app: App, db: Db): Map<string, Meter> {
  const out = new Map<string, Meter>();
  const add = (key: string, today: number, total: number) => {
    const m = out.get(key) ?? zero();
    out.set(key, { todayBytes: m.todayBytes + today, totalBytes: m.totalBytes + total });
  };
  for (const row of selectAllMeters(db, app.hub.delivery.meter.day())) add(`${row.room_id}\n${row.session_id}`, row.today, row.total);
  for (const [key, bytes] of app.hub.delivery.meter.pendingBySession()) add(key, bytes, bytes);
  return out;
}

export function roomDelivery(app: App, db: Db, roomId: string): RoomDelivery {
  const budget = app.hub.delivery.meter.budget(roomId);
  const pause = app.hub.delivery.loopGuard.pause(roomId);
  const names = pause
    ? [...new Set(listRoomSessions(db, roomId).filter((s) => s.session_kind === 'worker' && pause.keys.has(s.agent_key)).map((s) => s.display_name))]
    : [];
  return {
    roomId,
    meter: roomMeters(app, db, roomId).room,
    budgetTokens: budget.budgetTokens,
    budgetReached: budget.reached,
    loop: pause ? { agents: names, fromNumber: pause.fromNumber, alertNumber: pause.alertNumber } : null,
  };
}
