// Saved room sessions of MCP clients (data-model.md §2), keyed by client name + working
// directory: the rooms a client joined, how, its last seen message and its current room.
// resume_room_session and auto-join read them; reads and waits move the cursor forward.
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

/** Records that the client joined `roomId` (keeping its cursor) and optionally makes it current. */
export async function saveJoinedRoom(tx: Tx, clientKey: string, roomId: string, joinedVia: JoinedVia, makeCurrent: boolean): Promise<void> {
  await upsertClientRoomSession(tx, clientKey, roomId, joinedVia);
  if (makeCurrent) await setCurrentClientRoom(tx, clientKey, roomId);
}

export async function getSavedCurrentRoom(q: Queryable, clientKey: string): Promise<SavedRoomSession | null> {
  const row = await selectCurrentClientRoom(q, clientKey);
  return row ? toSaved(row) : null;
}

export async function getSavedRoomSession(q: Queryable, clientKey: string, roomId: string): Promise<SavedRoomSession | null> {
  const row = await selectClientRoomSession(q, clientKey, roomId);
  return row ? toSaved(row) : null;
}

/**
 * Moves the client's saved cursor in `roomId` forward to `messageNumber`; never back.
 * Only rooms the client joined have a saved session; returns whether the cursor moved.
 */
export async function advanceClientCursor(tx: Tx, clientKey: string, roomId: string, messageNumber: number): Promise<boolean> {
  const row = await selectClientRoomSession(tx, clientKey, roomId);
  if (!row || !Number.isSafeInteger(messageNumber) || messageNumber < 1) return false;
  const current = parseNumberedId('msg', row.last_message_id) ?? 0;
  if (messageNumber <= current) return false;
  await updateClientCursor(tx, clientKey, roomId, msgId(messageNumber));
  return true;
}

function toSaved(row: ClientRoomSessionRow): SavedRoomSession {
  return {
    clientKey: row.client_key,
    roomId: row.room_id,
    joinedVia: row.joined_via as JoinedVia,
    lastMessageId: row.last_message_id,
    lastSeenAt: row.last_seen_at,
    isCurrent: row.is_current === 1,
  };
}
