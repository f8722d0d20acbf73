// Whether one committed message activates one agent, by wait_for_messages' own activation
// rules (routing.ts with routingContext.ts: a room event only for the agents it concerns,
// `system_noise` for the rest), for deciders outside a wait: the managed-agent triggers
// (which run in this computer's rooms). A thin call on purpose, so the rules live in one place.
import type { MessageRow } from '../domain/messages/read';
import type { SessionRow } from '../domain/sessions/sessions';
import { routeMessage, type RoutingDecision } from './routing';
import { routableMessage, routingContextFor } from './routingContext';
import type { McpServices } from './services';

export function activationFor(services: McpServices, roomId: string, recipient: SessionRow, row: MessageRow): Promise<RoutingDecision> {
  const room = { place: services.store.place, roomId };
  return services.store.read(async (q) => routeMessage(routableMessage(row), await routingContextFor({ services }, q, room, recipient)));
}
