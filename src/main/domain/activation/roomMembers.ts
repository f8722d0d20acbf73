// Who is a member of a room now, for routing and the turn rule: the room's sessions and managed
// workers, read once per burst of routing, and the in-memory presence RoutingServices tells.
import { listRoomSessions, type SessionRow } from '../sessions/sessions';
import { managedWorkerIdsInRoom } from '../../store/managedAgentQueries';
import type { PlacedRoom } from '../../store/places';
import type { Queryable } from '../../store/port';
import { placeKey } from '../placeKeys';
import type { PresenceRow } from '../sessions/presence';

/** What routing reads besides the store: who shows online, and the loop guard's pauses. */
export interface RoutingServices {
  /** Whether a session shows online (held by this app, or heard from in a team room). */
  isOnline(place: string, session: PresenceRow): boolean;
  readonly delivery: {
    readonly loopGuard: {
      /** Whether the loop guard paused messages from `senderKey` to `recipientKey` from `number` on. */
      pausedBetween(room: PlacedRoom, senderKey: string, recipientKey: string, number: number): boolean;
    };
    /** Told each open @all turn's deadline, so a turn nobody ends still moves on then (issue 34). */
    readonly turnClock?: { dueAt(place: string, roomId: string, number: number, at: number): void };
  };
  /** How long one @all turn lasts at most (TURN_WAIT_MS; tests shorten it). */
  readonly turnWaitMs?: number;
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
