// A session's reachability as people and agents are told it (issue 14): what the app sees
// in memory (reachability.ts), with managed agents shown as reachable by design (the app
// starts them when needed) unless paused, held or unable to run, ended sessions as offline, and a team
// room's agent held by another machine's app as elsewhere (its waits are seen only there). A
// team room's managed agent whose app (on another machine) is not running is offline.
import type { Reachability } from '../../shared/model/workers';
import type { SessionRow } from '../domain/sessions/sessions';
import type { PresenceRow } from '../domain/sessions/presence';
import { getManagedMember, type ManagedMemberRow } from '../store/managedAgentQueries';
import { placeKey } from '../domain/placeKeys';
import type { Queryable } from '../store/port';
import type { DeliveryServices } from '.';

export async function reachabilityOf(
  q: Queryable,
  delivery: Pick<DeliveryServices, 'reachability' | 'heldElsewhere' | 'appAlive'>,
  place: string,
  session: Pick<SessionRow, 'worker_id' | 'room_id'> & PresenceRow,
  /** The session's managed-member row when the caller read it already (null: not managed). */
  member?: ManagedMemberRow | null,
): Promise<Reachability> {
  if (session.ended_at) return 'offline';
  const live = delivery.reachability.state(placeKey(place, session.session_id));
  if (live === 'listening' || live === 'working') return live;
  // Only a durable worker can be a managed agent (of the room's place, whose `q` this is): the others need no read.
  const managed = member !== undefined ? member : session.worker_id ? await getManagedMember(q, session.worker_id, session.room_id) : undefined;
  if (!managed) return live === 'offline' && delivery.heldElsewhere(place, session) ? 'elsewhere' : live;
  // Another machine's managed agent is "managed" there too (its turns are that app's), not merely elsewhere.
  // Run by an app of the team that is not running now (its computer is off, or it stopped): nothing starts it.
  if (!delivery.appAlive(place, managed)) return 'offline';
  // Paused, held by its budget, or its CLI cannot run: no turn until the person resumes it.
  return managed.takes_turns === 1 ? 'managed' : 'managed_paused';
}
