// Whether committed messages activate an agent, by wait_for_messages' own activation rules
// (routing.ts with routingContext.ts: a room event only for the agents it concerns,
// `system_noise` for the rest, `loop_paused` between agents the loop guard paused), for
// deciders outside a wait: the managed-agent triggers (which run in this computer's rooms),
// receipts ("waiting for Cedar"), get_message_status and the unanswered-message watcher
// (in the room's place). Thin calls on purpose, so the rules live in one place.
import type { MessageRow } from '../messages/read';
import type { SessionRow } from '../sessions/sessions';
import type { PlacedRoom } from '../../store/places';
import type { Queryable, Storage } from '../../store/port';
import { routeMessage, type RoutingDecision } from './routing';
import { routableMessage, routingContextFor, type RoutingServices } from './routingContext';

export function activationFor(services: RoutingServices & { readonly store: Storage }, roomId: string, recipient: SessionRow, row: MessageRow): Promise<RoutingDecision> {
  const room = { place: services.store.place, roomId };
  return services.store.read(async (q) => routeMessage(routableMessage(row), await routingContextFor(services, q, room, recipient)));
}

/** One recipient's decisions for many messages of a room: its routing context is built once, its lookups answered by `q`. */
export async function routerFor(services: RoutingServices, q: Queryable, room: PlacedRoom, recipient: SessionRow): Promise<(row: MessageRow) => Promise<RoutingDecision>> {
  const ctx = await routingContextFor(services, q, room, recipient);
  return (row) => routeMessage(routableMessage(row), ctx);
}
