// Saved room sessions of MCP clients (data-model.md §2), keyed by client name + working
// directory: the rooms a client joined (with each room's place), how, its last seen message
// and its current room. They are this computer's memory, kept in its own database whatever
// the room's place. resume_room_session and auto-join read them; reads move the cursor forward.
import type { Queryable, Tx } from '../../store/port';
import {
  selectClientRoomSession,
  selectCurrentClientRoom,
  setCurrentClientRoom,
  updateClientCursor,
  upsertClientRoomSession,
  type ClientRoomSessionRow,
} from '../../store/roomQueries';
import { msgId, parseNumberedId } from '../ids';

export type JoinedVia = 'join_code' | 'join_room' | 'config' | 'git-remote';

export interface SavedRoomSession {
  clientKey: string;
  /** 'local' or the team whose room it is. */
  place: string;
  roomId: string;
  joinedVia: JoinedVia;
  /** `msg_N` of the newest message the client has seen, or null. */
  lastMessageId: string | null;
  lastSeenAt: string;
  isCurrent: boolean;
}

/** The key saved sessions are filed under: MCP client name and working directory. */
export function clientKeyOf(clientName: string, cwd: string): string {
  return `${clientName}\n${cwd}`;
}

/** Records that the client joined `roomId` of `place` (keeping its cursor) and optionally makes it current. */
export async function saveJoinedRoom(tx: Tx, clientKey: string, place: string, roomId: string, joinedVia: JoinedVia, makeCurrent: boolean): Promise<void> {
  await upsertClientRoomSession(tx, clientKey, place, roomId, joinedVia);
  if (makeCurrent) await setCurrentClientRoom(tx, clientKey, place, roomId);
}

export async function getSavedCurrentRoom(q: Queryable, clientKey: string): Promise<SavedRoomSession | null> {
  const row = await selectCurrentClientRoom(q, clientKey);
  return row ? toSaved(row) : null;
}

/** The saved session of `roomId`: in `place`, or (null) the one of that id the client joined last. */
export async function getSavedRoomSession(q: Queryable, clientKey: string, roomId: string, place: string | null = null): Promise<SavedRoomSession | null> {
  const row = await selectClientRoomSession(q, clientKey, roomId, place);
  return row ? toSaved(row) : null;
}

/**
 * Moves the client's saved cursor in `roomId` forward to `messageNumber`; never back.
 * Only rooms the client joined have a saved session; returns whether the cursor moved.
 */
export async function advanceClientCursor(tx: Tx, clientKey: string, place: string, roomId: string, messageNumber: number): Promise<boolean> {
  const row = await selectClientRoomSession(tx, clientKey, roomId, place);
  if (!row || !Number.isSafeInteger(messageNumber) || messageNumber < 1) return false;
  const current = parseNumberedId('msg', row.last_message_id) ?? 0;
  if (messageNumber <= current) return false;
  await updateClientCursor(tx, clientKey, place, roomId, msgId(messageNumber));
  return true;
}

function toSaved(row: ClientRoomSessionRow): SavedRoomSession {
  return {
    clientKey: row.client_key,
    place: row.place,
    roomId: row.room_id,
    joinedVia: row.joined_via as JoinedVia,
    lastMessageId: row.last_message_id,
    lastSeenAt: row.last_seen_at,
    isCurrent: row.is_current === 1,
  };
}
