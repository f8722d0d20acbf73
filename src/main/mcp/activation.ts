// Whether one committed message activates one agent, by wait_for_messages' own activation
// rules (routing.ts with routingContext.ts), for deciders outside a wait: the managed-agent
// triggers. A thin call on purpose, so the rules live in one place.
import type { MessageRow } from '../domain/messages/read';
import type { SessionRow } from '../domain/sessions/sessions';
import { routeMessage, type RoutingDecision } from './routing';
import { routingContextFor } from './routingContext';
import type { McpServices } from './services';

export function activationFor(services: McpServices, roomId: string, recipient: SessionRow, row: MessageRow): RoutingDecision {
  return routeMessage(
    {
      number: row.number,
      source: row.source,
      text: row.text,
      publisherAgentKey: row.publisher_agent_key,
      replyToNumber: row.reply_to_number,
      threadRootNumber: row.thread_root_number,
    },
    routingContextFor({ services }, roomId, recipient),
  );
}
