// System events (data-model.md §3.3): one `source:"system"`, `kind:"event"` message per
// action, sent as "LetAgents". The publisher is the agent whose action caused it (null
// for people), so routing can skip an agent's own events; `concerns` lists the agents the
// event is about, the only ones it wakes (mcp-tools.md §5.3 rows 4 and 4b).
import type { Tx } from '../store/port';
import { insertMessageRow, type EventConcern } from '../store/messageRows';
import { SYSTEM_SENDER, type Actor } from './actor';

export type { ConcernRole, EventConcern } from '../store/messageRows';

export function postSystemEvent(tx: Tx, roomId: string, text: string, causedBy: Actor | null, concerns: readonly EventConcern[] = []): Promise<number> {
  return insertMessageRow(tx, {
    roomId,
    kind: 'event',
    source: 'system',
    sender: SYSTEM_SENDER,
    text,
    publisherAgentKey: causedBy?.kind === 'agent' ? causedBy.agentKey : null,
    publisherSessionId: causedBy?.kind === 'agent' ? causedBy.sessionId : null,
    concerns,
  });
}
