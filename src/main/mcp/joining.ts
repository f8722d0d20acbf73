// Joining a room from a connection: it becomes the current room, and the client's saved
// room session (keyed by client name + working directory) is updated.
import type { RoomRow } from '../domain/rooms/rooms';
import { saveJoinedRoom } from '../domain/rooms/clientRoomSessions';
import type { JoinedVia } from './roomResponse';
import type { ToolEnv } from './services';

export async function enterRoom(env: ToolEnv, room: RoomRow, joinedVia: JoinedVia): Promise<void> {
  env.conn.currentRoom = room.room_id;
  env.conn.currentJoinedVia = joinedVia;
  await env.services.store.write((tx) => saveJoinedRoom(tx, env.conn.clientKey, room.room_id, joinedVia, true));
}
