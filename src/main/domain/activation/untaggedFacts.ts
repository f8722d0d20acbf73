// What the untagged-message rule (untagged.ts) knows about a room, read from the store and the
// bindings' presence: the room's agents (and which are members now), its recent messages and
// who holds a work lease. Read in the send's own transaction, so the stored answer matches.
import type { Queryable } from '../../store/port';
import { recentForRouting, workLeaseHolders } from '../../store/routingQueries';
import { isMember, rosterOf, type RoutingServices } from './routingContext';
import { PARTNER_WINDOW_MESSAGES, PARTNER_WINDOW_MS, parseRoute, type RoomFacts } from './untagged';

export async function roomFactsFor(services: RoutingServices, q: Queryable, place: string, roomId: string, now: Date = new Date()): Promise<RoomFacts> {
  const { sessions, managedWorkers } = await rosterOf(services, q, place, roomId);
  const agents = sessions
    .filter((s) => s.session_kind === 'worker' && !s.ended_at)
    .map((s) => ({ agentKey: s.agent_key, handle: s.name_key, name: s.display_name, member: isMember(services, place, managedWorkers, s) }));
  const since = new Date(now.getTime() - PARTNER_WINDOW_MS).toISOString();
  const recent = (await recentForRouting(q, roomId, since, PARTNER_WINDOW_MESSAGES)).map((row) => ({
    source: row.source,
    kind: row.kind,
    text: row.text,
    publisherAgentKey: row.publisher_agent_key,
    replyToAgentKey: row.reply_to_agent_key,
    routedTo: parseRoute(row.routed_to),
  }));
  return { agents, recent, leaseHolders: await workLeaseHolders(q, roomId) };
}
