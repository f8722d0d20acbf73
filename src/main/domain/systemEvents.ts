// System events (data-model.md §3.3): one `source:"system"`, `kind:"event"` message per
// action, sent as "LetAgents". The publisher is the agent whose action caused it (null
// for people), so routing can skip an agent's own events.
import type { Tx } from '../store/store';
import { insertMessageRow } from '../store/messageRows';
import { SYSTEM_SENDER, type Actor } from './actor';

export function postSystemEvent(tx: Tx, roomId: string, text: string, causedBy: Actor | null): number {
  return insertMessageRow(tx, {
    roomId,
    kind: 'event',
    source: 'system',
    sender: SYSTEM_SENDER,
    text,
    publisherAgentKey: causedBy?.kind === 'agent' ? causedBy.agentKey : null,
    publisherSessionId: causedBy?.kind === 'agent' ? causedBy.sessionId : null,
  });
}
