// Rooms as the sidebar and the room header show them (the contract's RoomSummary): the
// domain's room list of each place, with its place, the repo name, the person's unread
// count (their own read marker) and how many of its agents are online. A team that cannot
// be reached now keeps the rooms it showed last, so the sidebar does not lose them.
import type { RoomSummary } from '../../../shared/model/rooms';
import type { AppParts } from '../appParts';
import { listRooms, requireRoom, roomListItem, type RoomListItem } from '../../domain/rooms/rooms';
import { listAgents } from '../../domain/sessions/roster';
import { LOCAL_PLACE } from '../../store/places';
import type { Queryable } from '../../store/port';
import type { ApiContext } from '../context';

/** "owner/repo" of a repo room id ("github.com/owner/repo"): the path after the host. */
export function repoNameOf(kind: RoomListItem['kind'], roomId: string): string | null {
  if (kind !== 'repo') return null;
  const slash = roomId.indexOf('/');
  return slash < 0 ? roomId : roomId.slice(slash + 1);
}

/** Online agent sessions per room of one place. */
async function onlineCounts(app: AppParts, q: Queryable, place: string, roomId?: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const agent of await listAgents(q, { roomId: roomId ?? null })) {
    const row = { session_id: agent.sessionId, ended_at: agent.endedAt, host_id: agent.hostId, released_at: agent.releasedAt, host_heard_at: agent.hostHeardAt };
    if (!agent.ended && app.hub.isOnline(place, row)) counts.set(agent.roomId, (counts.get(agent.roomId) ?? 0) + 1);
  }
  return counts;
}

function toSummary(place: string, item: RoomListItem, online: number): RoomSummary {
  return {
    id: item.roomId,
    place,
    kind: item.kind,
    name: item.displayName,
    repo: repoNameOf(item.kind, item.roomId),
    code: item.code,
    pinned: item.pinned,
    archived: item.archived,
    unread: item.unreadCount,
    lastNumber: item.latestMessageNumber,
    lastActivityAt: item.lastActivityAt,
    onlineAgents: online,
    replyToAll: item.replyToAll,
  };
}

/** The rooms of one place. */
export async function roomSummaries(ctx: ApiContext, place: string): Promise<RoomSummary[]> {
  const reader = await ctx.reader(place);
  return ctx.read(async (q) => {
    const online = await onlineCounts(ctx.app, q, place);
    return (await listRooms(q, { reader })).map((item) => toSummary(place, item, online.get(item.roomId) ?? 0));
  }, place);
}

/** What each team showed last, per app: an offline team's rooms stay in the sidebar (team-rooms.md §5). */
const lastSeenByApp = new WeakMap<AppParts, Map<string, RoomSummary[]>>();

/**
 * The rooms of every place: this computer's, then each team's in display order. A team that
 * is online is read; one that is not gives the rooms it showed last (and starts connecting).
 */
export async function allRoomSummaries(ctx: ApiContext): Promise<RoomSummary[]> {
  const { app } = ctx;
  let lastSeen = lastSeenByApp.get(app);
  if (!lastSeen) lastSeenByApp.set(app, (lastSeen = new Map()));
  const reachable = new Set((await app.places.reachable()).map((s) => s.place));
  const out: RoomSummary[] = [];
  for (const place of await app.places.list()) {
    if (place !== LOCAL_PLACE && !reachable.has(place)) {
      out.push(...(lastSeen.get(place) ?? []));
      continue;
    }
    try {
      const rooms = await roomSummaries(ctx, place);
      if (place !== LOCAL_PLACE) lastSeen.set(place, rooms);
      out.push(...rooms);
    } catch (error) {
      // A team that went offline between the look and the read: its rooms as last seen.
      if (place === LOCAL_PLACE) throw error;
      out.push(...(lastSeen.get(place) ?? []));
    }
  }
  return out;
}

/** One room's summary, the same entry the room list shows (R3 when unknown). */
export async function roomSummary(ctx: ApiContext, place: string, roomId: string): Promise<RoomSummary> {
  const reader = await ctx.reader(place);
  return ctx.read(async (q) => {
    const item = (await roomListItem(q, (await requireRoom(q, roomId)).room_id, reader))!;
    return toSummary(place, item, (await onlineCounts(ctx.app, q, place, roomId)).get(roomId) ?? 0);
  }, place);
}
