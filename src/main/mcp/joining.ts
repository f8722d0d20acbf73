// Joining a room from a connection: it becomes the current room (with its place), and the
// client's saved room session (keyed by client name + working directory, kept on this
// computer whatever the room's place) is updated.
import type { RoomRow } from '../domain/rooms/rooms';
import { saveJoinedRoom } from '../domain/rooms/clientRoomSessions';
import type { JoinedVia } from './roomResponse';
import type { ToolEnv } from './services';

export async function enterRoom(env: ToolEnv, place: string, room: RoomRow, joinedVia: JoinedVia): Promise<void> {
  env.conn.currentRoom = room.room_id;
  env.conn.currentPlace = place;
  env.conn.currentJoinedVia = joinedVia;
  env.conn.noteRoom(place, room.room_id);
  await env.services.store.write((tx) => saveJoinedRoom(tx, env.conn.clientKey, place, room.room_id, joinedVia, true));
}
