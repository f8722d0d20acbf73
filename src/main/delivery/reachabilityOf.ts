// A session's reachability as people and agents are told it (issue 14): what the app sees
// in memory (reachability.ts), with managed agents shown as reachable by design (the app
// starts them when needed) unless paused, held or unable to run, ended sessions as offline, and a team
// room's agent held by another machine's app as elsewhere (its waits are seen only there).
import type { Reachability } from '../../shared/model/workers';
import type { SessionRow } from '../domain/sessions/sessions';
import type { PresenceRow } from '../domain/sessions/presence';
import { getManagedStateOfWorker } from '../store/managedAgentQueries';
import { placeKey } from '../domain/placeKeys';
import type { Queryable } from '../store/port';
import type { DeliveryServices } from '.';

export async function reachabilityOf(
  q: Queryable,
  delivery: Pick<DeliveryServices, 'reachability' | 'heldElsewhere'>,
  place: string,
  session: Pick<SessionRow, 'worker_id' | 'room_id'> & PresenceRow,
): Promise<Reachability> {
  if (session.ended_at) return 'offline';
  const live = delivery.reachability.state(placeKey(place, session.session_id));
  if (live === 'listening' || live === 'working') return live;
  if (live === 'offline' && delivery.heldElsewhere(place, session)) return 'elsewhere';
  // Only a durable worker can be a managed agent (of this computer's rooms, whose `q` this is then): the others need no read.
  const managed = session.worker_id ? await getManagedStateOfWorker(q, session.worker_id, session.room_id) : undefined;
  // Paused, held by its budget, or its CLI cannot run: no turn until the person resumes it.
  if (managed) return managed.desired_state === 'running' && managed.held_reason === null && managed.cant_run_json === null ? 'managed' : 'managed_paused';
  return live;
}
