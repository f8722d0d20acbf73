// Rooms as the sidebar and the room header show them (the contract's RoomSummary):
// the domain's room list plus the repo name and how many of its agents are online.
import type { RoomSummary } from '../../../shared/model/rooms';
import type { App } from '../../app';
import { listRooms, requireRoom, roomListItem, type RoomListItem } from '../../domain/rooms/rooms';
import { listAgents } from '../../domain/sessions/roster';
import type { Db } from '../../store/database';

/** "owner/repo" of a repo room id ("github.com/owner/repo"): the path after the host. */
export function repoNameOf(kind: RoomListItem['kind'], roomId: string): string | null {
  if (kind !== 'repo') return null;
  const slash = roomId.indexOf('/');
  return slash < 0 ? roomId : roomId.slice(slash + 1);
}

/** Online agent sessions per room. */
function onlineCounts(app: App, db: Db, roomId?: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const agent of listAgents(db, { roomId: roomId ?? null })) {
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

export function roomSummaries(app: App, db: Db): RoomSummary[] {
  const online = onlineCounts(app, db);
  return listRooms(db).map((item) => toSummary(item, online.get(item.roomId) ?? 0));
}

/** One room's summary, the same entry the room list shows (R3 when unknown). */
export function roomSummary(app: App, db: Db, roomId: string): RoomSummary {
  const item = roomListItem(db, requireRoom(db, roomId).room_id)!;
  return toSummary(item, onlineCounts(app, db, roomId).get(roomId) ?? 0);
}
