// The "Needs you" items the app raises itself (issue 14), and the one way to raise them:
// a message an agent has not picked up, a task handed to an agent that stays silent, a
// loop the loop guard paused, a room's daily token budget used up, and a managed agent
// held by its own budget. One item per subject, ever (a re-raise is a no-op); an item is
// resolved by what it waited for, dismissed by the person, or closed by its action.
import {
  alertExists, closeAlertRow, getAlertRow, insertAlertRow, listOpenAlerts, updateAlertDetail,
  type AlertKind, type AlertRow,
} from '../../store/alertQueries';
import type { Queryable, Tx } from '../../store/port';
import { allocateNumber } from '../../store/rooms';
import { getRoom } from '../rooms/rooms';

export type { AlertKind, AlertRow } from '../../store/alertQueries';

export interface AlertInput {
  readonly roomId: string;
  readonly kind: AlertKind;
  /** What the item is about, unique per room and kind ("msg_41:<session>", "day:2025-01-31"). */
  readonly subject: string;
  readonly sessionId?: string | null;
  readonly messageNumber?: number | null;
  readonly taskNumber?: number | null;
  readonly title: string;
  readonly body: string;
  readonly detail?: Record<string, unknown>;
}

/** Raises an item once per subject; returns its number, or null when the room is gone or the subject already had one. */
export async function raiseAlert(tx: Tx, input: AlertInput): Promise<number | null> {
  if (!(await getRoom(tx, input.roomId)) || (await alertExists(tx, input.roomId, input.kind, input.subject))) return null;
  const number = await allocateNumber(tx, input.roomId, 'next_alert_number');
  await insertAlertRow(tx, {
    room_id: input.roomId,
    number,
    kind: input.kind,
    subject: input.subject,
    session_id: input.sessionId ?? null,
    message_number: input.messageNumber ?? null,
    task_number: input.taskNumber ?? null,
    title: input.title,
    body: input.body,
    detail_json: JSON.stringify(input.detail ?? {}),
  });
  tx.emit({ type: 'needsYou.changed', roomId: input.roomId });
  return number;
}

/** Closes an open item (what it waited for happened, or the person dismissed it); false when it was not open. */
export async function closeAlert(tx: Tx, roomId: string, number: number, status: 'resolved' | 'dismissed'): Promise<boolean> {
  const closed = await closeAlertRow(tx, roomId, number, status);
  if (closed) tx.emit({ type: 'needsYou.changed', roomId });
  return closed;
}

/** Rewrites an open item's text and detail (a loop that drew in another agent). */
export async function reviseAlert(tx: Tx, alert: AlertRow, body: string, detail: Record<string, unknown>): Promise<void> {
  await updateAlertDetail(tx, alert.room_id, alert.number, { body, detail_json: JSON.stringify(detail) });
  tx.emit({ type: 'needsYou.changed', roomId: alert.room_id });
}

export function getAlert(q: Queryable, roomId: string, number: number): Promise<AlertRow | undefined> {
  return getAlertRow(q, roomId, number);
}

export function openAlerts(q: Queryable, kind: AlertKind, roomId: string | null = null): Promise<AlertRow[]> {
  return listOpenAlerts(q, kind, roomId);
}

export function alertDetail<T extends Record<string, unknown>>(alert: Pick<AlertRow, 'detail_json'>): Partial<T> {
  try {
    return JSON.parse(alert.detail_json) as Partial<T>;
  } catch {
    return {};
  }
}
