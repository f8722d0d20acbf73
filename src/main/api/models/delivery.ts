// Delivery as the UI shows it (issue 14): receipts under messages, the token meter of
// sessions and rooms, and a room's budget and loop-guard pause. `q` reads the room's place.
import type { MessageReceipts, RoomDelivery } from '../../../shared/model/delivery';
import type { Meter } from '../../../shared/model/workers';
import type { AppParts } from '../appParts';
import { namesInLoop } from '../../delivery/loopGuard';
import { reachabilityOf } from '../../delivery/reachabilityOf';
import { mapInOrder } from '../../domain/inOrder';
import { getMessageRow, isPromptOnly, type MessageRow } from '../../domain/messages/read';
import { listRoomSessions, type SessionRow } from '../../domain/sessions/sessions';
import { noReplyWords } from '../../agents/noReply';
import { noRepliesTo } from '../../store/routingQueries';
import { broadcastRound } from '../../domain/activation/broadcastRound';
import { messageRecipients } from '../../mcp/messageStatus';
import { selectAllMeters, selectRoomMeter } from '../../store/deliveryQueries';
import { getManagedMember } from '../../store/managedAgentQueries';
import type { PlacedRoom } from '../../store/places';
import type { Queryable } from '../../store/port';

/** The receipts of the given messages of a room (people-visible ones; others are left out). */
export async function receiptsOf(app: AppParts, q: Queryable, room: PlacedRoom, numbers: readonly number[]): Promise<MessageReceipts[]> {
  const { roomId } = room;
  const rows: MessageRow[] = [];
  for (const n of new Set(numbers)) {
    const row = await getMessageRow(q, roomId, n);
    if (row && !isPromptOnly(row)) rows.push(row);
  }
  const recipients = await messageRecipients(app.hub.services, q, room, rows);
  // Names of the room's agents, for those not (yet) among a message's recipients (an @all's later turns).
  const sessions = rows.length > 0 ? await listRoomSessions(q, roomId) : [];
  return mapInOrder(rows, async (row) => {
    const list = recipients.get(row.number) ?? [];
    return {
      number: row.number,
      seen: list.filter((r) => r.receipt).map((r) => ({ sessionId: r.session.session_id, name: r.session.display_name, at: r.receipt!.at, exact: r.receipt!.exact })),
      pushed: list.filter((r) => !r.receipt && r.pushedAt).map((r) => ({ sessionId: r.session.session_id, name: r.session.display_name, at: r.pushedAt! })),
      waiting: await mapInOrder(list.filter((r) => !r.receipt && !r.pushedAt), async (r) => {
        const reachability = await reachabilityOf(q, app.hub.delivery, room.place, r.session);
        // A paused managed agent: the receipt offers Resume (issue 35), which needs its id.
        const paused = reachability === 'managed_paused' && r.session.worker_id ? await getManagedMember(q, r.session.worker_id, roomId) : undefined;
        return { sessionId: r.session.session_id, name: r.session.display_name, reachability, ...(paused ? { pausedAgentId: paused.agent_id } : {}) };
      }),
      ...(await noRepliesOf(q, roomId, row.number, sessions)),
      ...(await turnsOf(app, q, room, row.number, sessions)),
    };
  });
}

/** The managed agents that read the message and answered nothing, and why ("read it and passed"). */
async function noRepliesOf(q: Queryable, roomId: string, number: number, sessions: readonly SessionRow[]): Promise<Pick<MessageReceipts, 'noReply'>> {
  const rows = await noRepliesTo(q, roomId, number);
  if (rows.length === 0) return {};
  return { noReply: rows.map((r) => ({ name: sessions.find((s) => s.agent_key === r.agent_key)?.display_name ?? 'An agent', why: noReplyWords(r.reason) })) };
}

/** A person's @all answered in turn (issue 34): the order with each agent's state, and when the current turn ends. */
async function turnsOf(app: AppParts, q: Queryable, room: PlacedRoom, number: number, sessions: readonly SessionRow[]): Promise<Pick<MessageReceipts, 'turns'>> {
  const round = await broadcastRound(app.hub.services, q, room.place, room.roomId, number);
  if (!round) return {};
  const nameOf = (agentKey: string) => sessions.find((s) => s.agent_key === agentKey)?.display_name ?? 'An agent';
  return {
    turns: {
      order: round.state.positions.map((p) => ({ name: nameOf(p.agentKey), state: p.state, startedAt: p.startedAt, endedAt: p.endedAt })),
      turnEndsAt: round.state.deadline,
    },
  };
}

const zero = (): Meter => ({ todayBytes: 0, totalBytes: 0 });

/**
 * Each session's meter in one room (stored plus not yet written), and the room's; the meter
 * pairs what is not yet written with the read (TokenMeter.counted), so no byte counts twice.
 */
export async function roomMeters(app: AppParts, q: Queryable, placed: PlacedRoom): Promise<{ room: Meter; sessions: Map<string, Meter> }> {
  const { roomId } = placed;
  const meter = app.hub.delivery.meter;
  const sessions = new Map<string, Meter>();
  const room = zero();
  const add = (sessionId: string, today: number, total: number) => {
    const m = sessions.get(sessionId) ?? zero();
    sessions.set(sessionId, { todayBytes: m.todayBytes + today, totalBytes: m.totalBytes + total });
    room.todayBytes += today;
    room.totalBytes += total;
  };
  await meter.counted(placed.place, async (pending) => {
    for (const row of await selectRoomMeter(q, roomId, meter.day(placed.place))) add(row.session_id, row.today, row.total);
    for (const [key, bytes] of pending) if (key.startsWith(`${roomId}\n`)) add(key.slice(roomId.length + 1), bytes, bytes);
  });
  return { room, sessions };
}

/** Every session's meter across the rooms of `place`, keyed "<room>\n<session>" (the roster on the Agents page); pending bytes as in roomMeters. */
export async function allSessionMeters(app: AppParts, q: Queryable, place: string): Promise<Map<string, Meter>> {
  const out = new Map<string, Meter>();
  const add = (key: string, today: number, total: number) => {
    const m = out.get(key) ?? zero();
    out.set(key, { todayBytes: m.todayBytes + today, totalBytes: m.totalBytes + total });
  };
  const { meter } = app.hub.delivery;
  await meter.counted(place, async (pending) => {
    for (const row of await selectAllMeters(q, meter.day(place))) add(`${row.room_id}\n${row.session_id}`, row.today, row.total);
    for (const [key, bytes] of pending) add(key, bytes, bytes);
  });
  return out;
}

export async function roomDelivery(app: AppParts, q: Queryable, placed: PlacedRoom): Promise<RoomDelivery> {
  const { roomId } = placed;
  const budget = await app.hub.delivery.meter.budget(placed);
  const pause = app.hub.delivery.loopGuard.pause(placed);
  const names = pause ? namesInLoop(await listRoomSessions(q, roomId), pause) : [];
  return {
    roomId,
    meter: (await roomMeters(app, q, placed)).room,
    budgetTokens: budget.budgetTokens,
    budgetReached: budget.reached,
    loop: pause ? { agents: names, fromNumber: pause.fromNumber, alertNumber: pause.alertNumber } : null,
  };
}
