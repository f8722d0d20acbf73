// Auto-join (mcp-tools.md §2.2) for connections with a working directory, first match
// wins: the .letagents.json room (created if missing), the repo room from origin if it
// already exists, the client's saved current room.
import { getSavedCurrentRoom } from '../domain/rooms/clientRoomSessions';
import { classifyRoomName } from '../domain/rooms/roomIds';
import { ensureRoom, getRoom } from '../domain/rooms/rooms';
import { enterRoom } from './joining';
import { inspectWorkingDir } from './repoContext';
import type { ToolEnv } from './services';

export async function autoJoin(env: ToolEnv): Promise<void> {
  const cwd = env.conn.info.cwd;
  if (!cwd || env.conn.currentRoom) return;
  const { store } = env.services;
  const ctx = await inspectWorkingDir(cwd);
  if (ctx.configuredRoom) {
    const { roomId, kind } = classifyRoomName(ctx.configuredRoom);
    const { room } = await store.write((tx) => ensureRoom(tx, { roomId, kind }));
    if (!room.archived_at) return enterRoom(env, room, 'config');
  }
  const derived = ctx.derivedRepoRoom;
  if (derived) {
    const room = await store.read((q) => getRoom(q, derived));
    if (room && !room.archived_at) return enterRoom(env, room, 'git-remote');
  }
  const { saved, room } = await store.read(async (q) => {
    const saved = await getSavedCurrentRoom(q, env.conn.clientKey);
    return { saved, room: saved ? await getRoom(q, saved.roomId) : null };
  });
  if (saved && room && !room.archived_at) {
    env.conn.currentRoom = room.room_id;
    env.conn.currentJoinedVia = saved.joinedVia;
  }
}
