// The sidebar's room list: pinned rooms first, then by latest activity, each with its
// unread count; archived rooms come last, flagged.
import type { Db } from '../../store/database';
import { countUnread, selectRoomList, selectRoomListRow, type RoomListRow } from '../../store/roomQueries';
import { inviteCodeOf, type RoomKind } from './roomIds';

/** Unread counts stop here; the UI shows "999+". */
export const UNREAD_COUNT_CAP = 999;
const DEFAULT_ROOM_LIST_LIMIT = 1000;

export interface RoomListItem {
  roomId: string;
  kind: RoomKind;
  displayName: string;
  /** The invite code for invite rooms, else null. */
  code: string | null;
  pinned: boolean;
  archived: boolean;
  unreadCount: number;
  latestMessageNumber: number;
  /** The newest message's time, or the room's creation time when it has none. */
  lastActivityAt: string;
}

export function listRooms(db: Db, options: { limit?: number } = {}): RoomListItem[] {
  return selectRoomList(db, options.limit ?? DEFAULT_ROOM_LIST_LIMIT).map((row) => toListItem(db, row));
}

/** One room as the list shows it; null for an unknown room. */
export function roomListItem(db: Db, roomId: string): RoomListItem | null {
  const row = selectRoomListRow(db, roomId);
  return row ? toListItem(db, row) : null;
}

function toListItem(db: Db, row: RoomListRow): RoomListItem {
  return {
    roomId: row.room_id,
    kind: row.kind,
    displayName: row.display_name,
    code: inviteCodeOf(row),
    pinned: row.pinned_at !== null,
    archived: row.archived_at !== null,
    unreadCount:
      row.latest_number !== null && row.latest_number > row.last_read_number
        ? countUnread(db, row.room_id, row.last_read_number, UNREAD_COUNT_CAP)
        : 0,
    latestMessageNumber: row.latest_number ?? 0,
    lastActivityAt: row.latest_at ?? row.created_at,
  };
}
