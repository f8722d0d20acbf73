// Who a message routes to and whether it reached them (issue 14): the receipts behind "Seen
// by Atlas, Birch · pushed to Juniper · waiting for Cedar" and get_message_status. "Routes to" is the activation
// decision of wait_for_messages (activation.ts), taken now, for every agent session of the
// room that existed when the message was posted; an agent is counted once, whichever of its
// sessions got it. Sessions that ended without getting it are left out (nothing reaches them).
import { RoomReceipts, type Receipt } from '../domain/delivery/receipts';
import type { MessageRow } from '../domain/messages/read';
import { listRoomSessions, type SessionRow } from '../domain/sessions/sessions';
import type { PlacedRoom } from '../store/places';
import type { Queryable } from '../store/port';
import { routerFor } from '../domain/activation/activation';
import type { RoutingDecision } from '../domain/activation/routing';
import type { McpServices } from './services';

export interface MessageRecipient {
  readonly agentKey: string;
  /** The session shown for the agent: the one that got it, else its live one. */
  readonly session: SessionRow;
  readonly receipt: Receipt | null;
  /** When it was pushed into the session (issue 26): delivered, not confirmed; null when not pushed. */
  readonly pushedAt: string | null;
  readonly decision: RoutingDecision;
}

/** Each message's recipients, by message number, in the order the agents joined the room; `q` (of the room's place) answers every lookup. */
export async function messageRecipients(services: McpServices, q: Queryable, room: PlacedRoom, rows: readonly MessageRow[]): Promise<Map<number, MessageRecipient[]>> {
  const { roomId } = room;
  const out = new Map<number, MessageRecipient[]>();
  if (rows.length === 0) return out;
  const sessions = (await listRoomSessions(q, roomId)).filter((s) => s.session_kind === 'worker');
  const numbers = rows.map((r) => r.number);
  // Receipts not yet written, taken in the same turn as the stored ones are read.
  const pendingAt = services.delivery.deliveries.pendingNow(room);
  const receipts = await RoomReceipts.load(q, roomId, Math.min(...numbers), Math.max(...numbers));
  const routers = new Map<string, (row: MessageRow) => Promise<RoutingDecision>>();
  const routeFor = async (session: SessionRow) => {
    let router = routers.get(session.session_id);
    if (!router) routers.set(session.session_id, (router = await routerFor(services, q, room, session)));
    return router;
  };
  for (const row of rows) {
    const byAgent = new Map<string, MessageRecipient>();
    for (const session of sessions) {
      if (session.created_at > row.created_at) continue;
      const pending = pendingAt(session.session_id, row.number);
      const receipt = receipts.of(session.session_id, row.number) ?? (pending === null ? null : { at: pending, exact: true });
      if (session.ended_at && !receipt) continue;
      const decision = await (await routeFor(session))(row);
      if (decision.decision !== 'activate') continue;
      const seen = byAgent.get(session.agent_key);
      // One entry per agent: a session that got it wins, else the live one.
      if (!seen || (!seen.receipt && (receipt || (seen.session.ended_at && !session.ended_at)))) {
        const pushedAt = services.delivery.pushes.pushedAt(room, session.session_id, row.number);
        byAgent.set(session.agent_key, { agentKey: session.agent_key, session, receipt, pushedAt, decision });
      }
    }
    out.set(row.number, [...byAgent.values()]);
  }
  return out;
}
