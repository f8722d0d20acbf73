// Rooms: creation (invite codes, ensured repo and named rooms), lookup with the R3/R4
// checks, and the person-only actions (rename, archive, pin, delete, mark read).
import type { Queryable, Tx } from '../../store/port';
import { getRoomRow, insertRoomRow, listOpenRoomIds, type RoomRow } from '../../store/rooms';
import { nearMatches } from '../../../shared/nearMatch';
import {
  deleteRoomRow,
  selectLastReadNumber,
  updateRoomArchivedAt,
  updateRoomDisplayName,
  updateRoomPinnedAt,
  upsertLastReadNumber,
} from '../../store/roomQueries';
import { updateRoomReplyToAll } from '../../store/broadcastTurnQueries';
import { isReplyToAll, REPLY_TO_ALL_MODES } from '../activation/broadcastTurns';
import { selectLatestNumber } from '../../store/messageQueries';
import { appErrors, errors } from '../errors';
import { checkRoomId, defaultDisplayName, generateInviteCode, parseInviteCode, type RoomKind } from './roomIds';

export type { RoomRow } from '../../store/rooms';
export { listRooms, roomListItem, type RoomListItem } from './roomList';

export async function getRoom(q: Queryable, roomId: string): Promise<RoomRow | null> {
  return await getRoomRow(q, roomId) ?? null;
}

/** The room, or R3 (naming the rooms nearest to the id, when some are within a typo). */
export async function requireRoom(q: Queryable, roomId: string): Promise<RoomRow> {
  const room = await getRoomRow(q, roomId);
  if (!room) throw errors.R3(await nearRoomIds(q, roomId));
  return room;
}

/** Rooms whose id is within a typo of `roomId` (design-revew → design-review), nearest first. */
export async function nearRoomIds(q: Queryable, roomId: string, kind?: RoomRow['kind']): Promise<string[]> {
  return nearMatches(roomId, await listOpenRoomIds(q, kind));
}

/** A room that accepts writes: R3 when unknown, R4 when archived. */
export async function resolveWritableRoom(q: Queryable, roomId: string): Promise<RoomRow> {
  const room = await requireRoom(q, roomId);
  if (room.archived_at !== null) throw errors.R4();
  return room;
}

/** Creates an invite room under a fresh unique code, named "Room <code>". */
export async function createInviteRoom(tx: Tx): Promise<RoomRow> {
  const code = await generateInviteCode(async (candidate) => (await getRoomRow(tx, candidate)) !== undefined);
  await insertRoomRow(tx, { roomId: code, kind: 'invite', displayName: defaultDisplayName('invite', code) });
  tx.emit({ type: 'room.changed', roomId: code, change: 'created' });
  return requireRoom(tx, code);
}

/**
 * Returns the room `roomId`, creating it first when missing. The id must already be in
 * its final form (see classifyRoomName); it is checked (R6, or R5 for invite codes).
 * An existing room is returned as it is, archived or not: callers decide.
 */
export async function ensureRoom(tx: Tx, input: { roomId: string; kind: RoomKind }): Promise<{ room: RoomRow; created: boolean }> {
  const roomId = input.kind === 'invite' ? parseInviteCode(input.roomId) : checkRoomId(input.roomId);
  const existing = await getRoomRow(tx, roomId);
  if (existing) return { room: existing, created: false };
  await insertRoomRow(tx, { roomId, kind: input.kind, displayName: defaultDisplayName(input.kind, roomId) });
  tx.emit({ type: 'room.changed', roomId, change: 'created' });
  return { room: await requireRoom(tx, roomId), created: true };
}

const MAX_DISPLAY_NAME_CHARS = 512;

/** A person renames a room; the id never changes. Archived rooms are read-only (R4). */
export async function renameRoom(tx: Tx, roomId: string, name: string): Promise<RoomRow> {
  await resolveWritableRoom(tx, roomId);
  const displayName = name.trim().replace(/\s+/g, ' ');
  const length = [...displayName].length;
  if (length < 1 || length > MAX_DISPLAY_NAME_CHARS || /\p{Cc}/u.test(displayName)) {
    throw appErrors.invalidInput('Room name must be 1–512 characters with no control characters.');
  }
  await updateRoomDisplayName(tx, roomId, displayName);
  tx.emit({ type: 'room.changed', roomId, change: 'renamed' });
  return requireRoom(tx, roomId);
}

type RoomMark = 'archived' | 'pinned';

const MARKS = {
  archived: { column: (room: RoomRow) => room.archived_at, write: updateRoomArchivedAt, on: 'archived', off: 'unarchived' },
  pinned: { column: (room: RoomRow) => room.pinned_at, write: updateRoomPinnedAt, on: 'updated', off: 'updated' },
} as const;

/** Sets or clears a person's mark on a room; setting it twice changes nothing and posts nothing. */
async function setRoomMark(tx: Tx, roomId: string, mark: RoomMark, on: boolean): Promise<RoomRow> {
  const room = await requireRoom(tx, roomId);
  const spec = MARKS[mark];
  if ((spec.column(room) !== null) === on) return room;
  await spec.write(tx, roomId, on ? tx.now : null);
  tx.emit({ type: 'room.changed', roomId, change: on ? spec.on : spec.off });
  return requireRoom(tx, roomId);
}

/** A person archives a room: it becomes read-only (R4 for writes). */
export const archiveRoom = (tx: Tx, roomId: string): Promise<RoomRow> => setRoomMark(tx, roomId, 'archived', true);
export const unarchiveRoom = (tx: Tx, roomId: string): Promise<RoomRow> => setRoomMark(tx, roomId, 'archived', false);
/** Pinned rooms come first in the sidebar. */
export const pinRoom = (tx: Tx, roomId: string): Promise<RoomRow> => setRoomMark(tx, roomId, 'pinned', true);
export const unpinRoom = (tx: Tx, roomId: string): Promise<RoomRow> => setRoomMark(tx, roomId, 'pinned', false);

/**
 * A person sets how the room's @all is answered (issue 34): 'in_turn' or 'all_at_once'. Only
 * broadcasts posted after the change follow it. Archived rooms are read-only (R4).
 */
export async function setReplyToAll(tx: Tx, roomId: string, mode: string): Promise<RoomRow> {
  if (!isReplyToAll(mode)) throw appErrors.invalidInput(`Reply to @all must be one of ${REPLY_TO_ALL_MODES.join(', ')}.`);
  const room = await resolveWritableRoom(tx, roomId);
  if (room.reply_to_all === mode) return room;
  await updateRoomReplyToAll(tx, roomId, mode);
  tx.emit({ type: 'room.changed', roomId, change: 'updated' });
  return requireRoom(tx, roomId);
}

/**
 * A person deletes a room and all of its data (messages, tasks, sessions, knowledge,
 * saved sessions, read marker). Its attachment rows go with it; no file is removed because
 * a row names it (a team's row could name this computer's database).
 */
export async function deleteRoom(tx: Tx, roomId: string): Promise<void> {
  await requireRoom(tx, roomId);
  await deleteRoomRow(tx, roomId);
  tx.emit({ type: 'room.changed', roomId, change: 'deleted' });
}

/** Moves the person's read marker forward to `upToNumber` (clamped to the newest message). */
/** Moves `reader`'s read marker ('' on this computer, the app's host id in a team database) forward. */
export async function markRoomRead(tx: Tx, roomId: string, upToNumber: number, reader = ''): Promise<number> {
  await requireRoom(tx, roomId);
  if (!Number.isSafeInteger(upToNumber) || upToNumber < 0) {
    throw appErrors.invalidInput('The read position must be a message number.');
  }
  const current = await selectLastReadNumber(tx, roomId, reader);
  const target = Math.min(upToNumber, await selectLatestNumber(tx, roomId));
  if (target <= current) return current;
  await upsertLastReadNumber(tx, roomId, reader, target);
  tx.emit({ type: 'room.changed', roomId, change: 'updated' });
  return target;
}
