// The one display form of a room's name, wherever people see it (sidebar, header, search,
// Needs you, the roster): a repository room not renamed by the person shows as owner/repo.
// And how the UI names a room: its id and its place ('local' or a team), since the same id
// may be another room in another place; a RoomRef is exactly what API inputs take.
import type { AppEvent } from '../../../shared/events';
import type { RoomSummary } from '../../../shared/types';

export interface RoomRef {
  readonly roomId: string;
  /** 'local' or a team's name. */
  readonly place: string;
}

export const LOCAL = 'local';

/** A room summary's reference. */
export const refOf = (room: Pick<RoomSummary, 'id' | 'place'>): RoomRef => ({ roomId: room.id, place: room.place });

/** The same room: id and place. */
export const sameRoom = (a: RoomRef, b: { roomId: string; place?: string }) => a.roomId === b.roomId && a.place === (b.place ?? LOCAL);

/** An event about `room` (its id and place). */
export const isEventOf = (event: AppEvent, room: RoomRef) => 'roomId' in event && 'place' in event && sameRoom(room, event);

/** A string that names the room uniquely (React keys, maps). */
export const roomKey = (room: RoomRef) => `${room.place}\n${room.roomId}`;

export function roomTitle(room: Pick<RoomSummary, 'kind' | 'name' | 'id' | 'repo'>): string {
  if (room.kind === 'repo' && room.repo && room.name === room.id) return room.repo;
  return room.name;
}
