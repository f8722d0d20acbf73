// Builds the routing context for one recipient in one room, from one read of the store and
// the in-memory presence of the bindings (what RoutingServices tells: the MCP layer's
// services have it, so its tools, delivery and the managed agents route alike).
import { extractMentions } from '../messages/mentions';
import { getMessageRow, type MessageRow } from '../messages/read';
import type { SessionRow } from '../sessions/sessions';
import { eventConcern, heldTaskNumbers, participatedBefore } from '../../store/routingQueries';
import type { Queryable } from '../../store/port';
import type { RoutableMessage, RoutingContext } from './routing';
import { parseRoute } from './untagged';
import { isMember, rosterOf, type RoutingServices } from './roomMembers';
import { broadcastRound } from './broadcastRound';
import { turnStarted } from './broadcastTurns';

export { isMember, rosterOf, type RoomRoster, type RoutingServices } from './roomMembers';

/** The routing context of `recipient` in `room`; `q` (of the room's place) answers its lookups (one read of the caller's). */
export async function routingContextFor(
  services: RoutingServices,
  q: Queryable,
  room: { readonly place: string; readonly roomId: string },
  recipient: SessionRow,
): Promise<RoutingContext> {
  const { place, roomId } = room;
  const { sessions, managedWorkers } = await rosterOf(services, q, place, roomId);
  // Members: online workers, the recipient, and managed agents, which are offline between
  // their turns (issue 25: counting only online ones let two agents' chatter wake them all).
  const activeWorkers = sessions.filter((s) => s.session_id === recipient.session_id ? s.session_kind === 'worker' && !s.ended_at : isMember(services, place, managedWorkers, s)).length;
  return {
    agentKey: recipient.agent_key,
    handle: recipient.name_key,
    roomAgentHandles: new Set(sessions.map((s) => s.name_key).filter((h) => h !== '')),
    heldTaskNumbers: new Set(await heldTaskNumbers(q, roomId, recipient.agent_key)),
    activeWorkers,
    publisherOf: async (n) => (await getMessageRow(q, roomId, n))?.publisher_agent_key ?? null,
    participatedBefore: (root, before) => participatedBefore(q, roomId, root, before, recipient.agent_key),
    concernOf: async (n) => {
      const row = await eventConcern(q, roomId, n, recipient.agent_key);
      return row ? { role: row.role, taskNumber: row.task_number } : null;
    },
    mentionsIn: extractMentions,
    turnOf: async (n) => {
      const round = await broadcastRound(services, q, place, roomId, n);
      if (!round || !round.rows.some((r) => r.agent_key === recipient.agent_key)) return null;
      return turnStarted(round.state, recipient.agent_key) ? 'started' : 'waiting';
    },
    loopPaused: (publisherKey, n) => services.delivery.loopGuard.pausedBetween(room, publisherKey, recipient.agent_key, n),
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
    routedTo: parseRoute(row.routed_to),
  };
}
