// Rooms as the sidebar and the room header show them (the contract's RoomSummary):
// the domain's room list plus the repo name and how many of its agents are online.
import type { RoomSummary } from '../../../shared/model/rooms';
import type { App } from '../../app';
import { listRooms, requireRoom, roomListItem, type RoomListItem } from '../../domain/rooms/rooms';
import { listAgents } from '../../domain/sessions/roster';
import type { Queryable } from '../../store/port';

/** "owner/repo" of a repo room id ("github.com/owner/repo"): the path after the host. */
export function repoNameOf(kind: RoomListItem['kind'], roomId: string): string | null {
  if (kind !== 'repo') return null;
  const slash = roomId.indexOf('/');
  return slash < 0 ? roomId : roomId.slice(slash + 1);
}

/** Online agent sessions per room. */
async function onlineCounts(app: App, q: Queryable, roomId?: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const agent of await listAgents(q, { roomId: roomId ?? null })) {
    if (!agent.ended && app.hub.isOnline(agent.sessionId)) counts.set(agent.roomId, (counts.get(agent.roomId) ?? 0) + 1);
  }
  return counts;
}

function toSummary(item: RoomListItem, online: number): RoomSummary {
  return {
    id: item.roomId,
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
  };
}

export async function roomSummaries(app: App, q: Queryable): Promise<RoomSummary[]> {
  const online = await onlineCounts(app, q);
  return (await listRooms(q)).map((item) => toSummary(item, online.get(item.roomId) ?? 0));
}

/** One room's summary, the same entry the room list shows (R3 when unknown). */
export async function roomSummary(app: App, q: Queryable, roomId: string): Promise<RoomSummary> {
  const item = (await roomListItem(q, (await requireRoom(q, roomId)).room_id))!;
  return toSummary(item, (await onlineCounts(app, q, roomId)).get(roomId) ?? 0);
}
