// Builds the routing context for one recipient in one room, from one read of the store and
// the in-memory presence of the bindings (what RoutingServices tells: the MCP layer's
// services have it, so its tools, delivery and the managed agents route alike).
import { extractMentions } from '../messages/mentions';
import { getMessageRow, type MessageRow } from '../messages/read';
import { listRoomSessions, type SessionRow } from '../sessions/sessions';
import { managedWorkerIdsInRoom } from '../../store/managedAgentQueries';
import { eventConcern, heldTaskNumbers, participatedBefore } from '../../store/routingQueries';
import type { PlacedRoom } from '../../store/places';
import type { Queryable } from '../../store/port';
import { placeKey } from '../placeKeys';
import type { PresenceRow } from '../sessions/presence';
import type { RoutableMessage, RoutingContext } from './routing';
import { parseRoute } from './untagged';

/** What routing reads besides the store: who shows online, and the loop guard's pauses. */
export interface RoutingServices {
  /** Whether a session shows online (held by this app, or heard from in a team room). */
  isOnline(place: string, session: PresenceRow): boolean;
  readonly delivery: {
    readonly loopGuard: {
      /** Whether the loop guard paused messages from `senderKey` to `recipientKey` from `number` on. */
      pausedBetween(room: PlacedRoom, senderKey: string, recipientKey: string, number: number): boolean;
    };
  };
}

/**
 * One commit wakes every waiter of the room at once; they all route against the same
 * session list, read once per burst (the first waiter's read, shared by the others) and
 * forgotten before the next turn of the event loop.
 */
export interface RoomRoster {
  readonly sessions: SessionRow[];
  /** Workers of the room's managed agents (running, paused or held): members between turns too. */
  readonly managedWorkers: ReadonlySet<string>;
}
const bursts = new WeakMap<RoutingServices, Map<string, Promise<RoomRoster>>>();
function roomRoster(services: RoutingServices, q: Queryable, place: string, roomId: string): Promise<RoomRoster> {
  let burst = bursts.get(services);
  if (!burst) bursts.set(services, (burst = new Map()));
  const key = placeKey(place, roomId);
  let roster = burst.get(key);
  if (!roster) {
    const current = burst;
    if (current.size === 0) setImmediate(() => current.clear());
    roster = (async () => ({ sessions: await listRoomSessions(q, roomId), managedWorkers: new Set(await managedWorkerIdsInRoom(q, roomId)) }))();
    // A failed read is not kept for the others.
    void roster.catch(() => current.delete(key));
    current.set(key, roster);
  }
  return roster;
}

/** Whether a session counts as a member of its room now: a worker, not ended, online or a managed agent (between turns too). */
export function isMember(services: RoutingServices, place: string, managedWorkers: ReadonlySet<string>, s: SessionRow): boolean {
  return s.session_kind === 'worker' && !s.ended_at && ((s.worker_id !== null && managedWorkers.has(s.worker_id)) || services.isOnline(place, s));
}

/** The room's sessions and managed workers, read once per burst of routing. */
export function rosterOf(services: RoutingServices, q: Queryable, place: string, roomId: string): Promise<RoomRoster> {
  return roomRoster(services, q, place, roomId);
}

/** The routing context of `recipient` in `room`; `q` (of the room's place) answers its lookups (one read of the caller's). */
export async function routingContextFor(
  services: RoutingServices,
  q: Queryable,
  room: { readonly place: string; readonly roomId: string },
  recipient: SessionRow,
): Promise<RoutingContext> {
  const { place, roomId } = room;
  const { sessions, managedWorkers } = await roomRoster(services, q, place, roomId);
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
