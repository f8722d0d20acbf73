// An agent's wakes as the roster shows them (the contract's Wake): the routing reason the
// MCP hub recorded, plus who posted the message that woke it and how it began.
import type { Wake } from '../../../shared/model/workers';
import type { App } from '../../app';
import { getMessageRow } from '../../domain/messages/read';
import type { WakeRecord } from '../../mcp/wakeLog';
import type { Db } from '../../store/database';
import { senderOf } from './people';

const EXCERPT_CHARS = 160;

/** Wakes are recorded only for activating reasons, so every recorded reason is one of Wake's. */
export function toWake(db: Db, record: WakeRecord): Wake {
  const row = getMessageRow(db, record.roomId, record.messageNumber);
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

/** The session's wakes, newest first. */
export function wakesOf(app: App, db: Db, sessionId: string): Wake[] {
  return app.hub.wakes.of(sessionId).map((w) => toWake(db, w));
}

/** The session's latest wake, or null (the roster shows only this one). */
export function lastWakeOf(app: App, db: Db, sessionId: string): Wake | null {
  const latest = app.hub.wakes.of(sessionId)[0];
  return latest ? toWake(db, latest) : null;
}
