// An agent's wakes as the roster shows them (the contract's Wake): the routing reason the
// MCP hub recorded, plus who posted the message that woke it and how it began.
import { mapInOrder } from '../../domain/inOrder';
import type { Wake } from '../../../shared/model/workers';
import type { AppParts } from '../appParts';
import { getMessageRow } from '../../domain/messages/read';
import type { WakeRecord } from '../../mcp/wakeLog';
import type { Queryable } from '../../store/port';
import { senderOf } from './people';

const EXCERPT_CHARS = 160;

/** Wakes are recorded only for activating reasons, so every recorded reason is one of Wake's. */
export async function toWake(q: Queryable, record: WakeRecord): Promise<Wake> {
  const row = await getMessageRow(q, record.roomId, record.messageNumber);
  const oneLine = (row?.text ?? '').replace(/\s+/g, ' ').trim();
  return {
    at: record.at,
    roomId: record.roomId,
    messageNumber: record.messageNumber,
    reason: record.reason as Wake['reason'],
    concern: record.concern?.role ?? null,
    taskNumber: record.concern?.taskNumber ?? null,
    from: row && row.source !== 'system' ? senderOf(row).name : null,
    excerpt: oneLine.length > EXCERPT_CHARS ? `${oneLine.slice(0, EXCERPT_CHARS - 1)}…` : oneLine,
    messages: record.activating,
  };
}

/** The wakes of the session of `place`, newest first (`q` reads that place). */
export function wakesOf(app: AppParts, q: Queryable, place: string, sessionId: string): Promise<Wake[]> {
  return mapInOrder(app.hub.wakes.of(place, sessionId), (w) => toWake(q, w));
}

/** The session's latest wake, or null (the roster shows only this one). */
export async function lastWakeOf(app: AppParts, q: Queryable, place: string, sessionId: string): Promise<Wake | null> {
  const latest = app.hub.wakes.of(place, sessionId)[0];
  return latest ? toWake(q, latest) : null;
}
