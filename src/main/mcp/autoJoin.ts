// Auto-join (mcp-tools.md §2.2) for connections with a working directory, first match
// wins: the .letagents.json room (created if missing, in the place placement gives it),
// the repo room from origin if it already exists (this computer's, else a team's), the
// client's saved current room (in its place).
import { getSavedCurrentRoom } from '../domain/rooms/clientRoomSessions';
import { classifyRoomName } from '../domain/rooms/roomIds';
import { ensureRoom, getRoom } from '../domain/rooms/rooms';
import { locateRoom } from './identity';
import { enterRoom } from './joining';
import { inspectWorkingDir } from './repoContext';
import type { ToolEnv } from './services';

export async function autoJoin(env: ToolEnv): Promise<void> {
  const cwd = env.conn.info.cwd;
  if (!cwd || env.conn.currentRoom) return;
  const { store, places } = env.services;
  const ctx = await inspectWorkingDir(cwd);
  if (ctx.configuredRoom) {
    const { roomId, kind } = classifyRoomName(ctx.configuredRoom);
    const found = await locateRoom(env, roomId);
    const place = (await found.storage.read((q) => getRoom(q, roomId))) ? found.place : await places.placeForNewRoom(kind, roomId);
    const { room } = await (await places.get(place)).write((tx) => ensureRoom(tx, { roomId, kind }));
    if (!room.archived_at) return enterRoom(env, place, room, 'config');
  }
  const derived = ctx.derivedRepoRoom;
  if (derived) {
    const found = await locateRoom(env, derived);
    const room = await found.storage.read((q) => getRoom(q, derived));
    if (room && !room.archived_at) return enterRoom(env, found.place, room, 'git-remote');
  }
  const saved = await store.read((q) => getSavedCurrentRoom(q, env.conn.clientKey));
  if (!saved) return;
  const room = await (await places.get(saved.place)).read((q) => getRoom(q, saved.roomId));
  if (room && !room.archived_at) {
    env.conn.currentRoom = room.room_id;
    env.conn.currentPlace = saved.place;
    env.conn.currentJoinedVia = saved.joinedVia;
    env.conn.noteRoom(saved.place, room.room_id);
  }
}
