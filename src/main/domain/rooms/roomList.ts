// The sidebar's room list: pinned rooms first, then by latest activity, each with its
// unread count; archived rooms come last, flagged.
import { mapInOrder } from '../inOrder';
import type { Queryable } from '../../store/port';
import { countUnread, selectRoomList, selectRoomListRow, type RoomListRow } from '../../store/roomQueries';
import { inviteCodeOf, type RoomKind } from './roomIds';
import { replyToAllOf, type ReplyToAll } from '../activation/broadcastTurns';

/** Unread counts stop here; the UI shows "999+". */
export const UNREAD_COUNT_CAP = 999;
/** Rooms the list (and a search of every room) takes at most. */
export const DEFAULT_ROOM_LIST_LIMIT = 1000;

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
  replyToAll: ReplyToAll;
}

/** `reader`: whose read markers count ('' on this computer, the app's host id in a team database). */
export async function listRooms(q: Queryable, options: { limit?: number; reader?: string } = {}): Promise<RoomListItem[]> {
  return mapInOrder(await selectRoomList(q, options.reader ?? '', options.limit ?? DEFAULT_ROOM_LIST_LIMIT), (row) => toListItem(q, row));
}

/** One room as the list shows it; null for an unknown room. */
export async function roomListItem(q: Queryable, roomId: string, reader = ''): Promise<RoomListItem | null> {
  const row = await selectRoomListRow(q, reader, roomId);
  return row ? await toListItem(q, row) : null;
}

async function toListItem(q: Queryable, row: RoomListRow): Promise<RoomListItem> {
  return {
    roomId: row.room_id,
    kind: row.kind,
    displayName: row.display_name,
    code: inviteCodeOf(row),
    pinned: row.pinned_at !== null,
    archived: row.archived_at !== null,
    unreadCount:
      row.latest_number !== null && row.latest_number > row.last_read_number
        ? await countUnread(q, row.room_id, row.last_read_number, UNREAD_COUNT_CAP)
        : 0,
    latestMessageNumber: row.latest_number ?? 0,
    lastActivityAt: row.latest_at ?? row.created_at,
    replyToAll: replyToAllOf(row.reply_to_all),
  };
}
