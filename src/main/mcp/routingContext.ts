// Builds the routing context for one recipient in one room, from the store and the
// in-memory presence of the bindings.
import { extractMentions } from '../domain/messages/mentions';
import { getMessageRow, type MessageRow } from '../domain/messages/read';
import { listRoomSessions, type SessionRow } from '../domain/sessions/sessions';
import { eventConcern, heldTaskNumbers, participatedBefore } from '../store/routingQueries';
import type { RoutableMessage, RoutingContext } from './routing';
import type { ToolEnv } from './services';

/**
 * One commit wakes every waiter of the room at once; they all route against the same
 * session list, read once per burst and forgotten before the next turn of the event loop.
 */
const burst = new Map<string, SessionRow[]>();
function roomSessions(env: Pick<ToolEnv, 'services'>, roomId: string): SessionRow[] {
  const key = `${env.services.hostId}\n${roomId}`;
  let sessions = burst.get(key);
  if (!sessions) {
    if (burst.size === 0) setImmediate(() => burst.clear());
    sessions = listRoomSessions(env.services.store.db, roomId);
    burst.set(key, sessions);
  }
  return sessions;
}

export function routingContextFor(env: Pick<ToolEnv, 'services'>, roomId: string, recipient: SessionRow): RoutingContext {
  const db = env.services.store.db;
  const sessions = roomSessions(env, roomId);
  const activeWorkers = sessions.filter(
    (s) => s.session_kind === 'worker' && !s.ended_at && (s.session_id === recipient.session_id || env.services.bindings.isOnline(s.session_id)),
  ).length;
  return {
    agentKey: recipient.agent_key,
    handle: recipient.name_key,
    roomAgentHandles: new Set(sessions.map((s) => s.name_key).filter((h) => h !== '')),
    heldTaskNumbers: new Set(heldTaskNumbers(db, roomId, recipient.agent_key)),
    activeWorkers,
    publisherOf: (n) => getMessageRow(db, roomId, n)?.publisher_agent_key ?? null,
    participatedBefore: (root, before) => participatedBefore(db, roomId, root, before, recipient.agent_key),
    concernOf: (n) => {
      const row = eventConcern(db, roomId, n, recipient.agent_key);
      return row ? { role: row.role, taskNumber: row.task_number } : null;
    },
    mentionsIn: extractMentions,
    loopPaused: (publisherKey, n) => env.services.delivery.loopGuard.pausedBetween(roomId, publisherKey, recipient.agent_key, n),
  };
}

/** The fields of a stored message that routing reads. */
export function routableMessage(row: MessageRow): RoutableMessage {
  return {
    number: row.number,
    kind: row.kind,
    source: row.source,
    text: row.text,
    publisherAgentKey: row.publisher_agent_key,
    replyToNumber: row.reply_to_number,
    threadRootNumber: row.thread_root_number,
  };
}
