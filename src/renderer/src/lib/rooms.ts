// The one display form of a room's name, wherever people see it (sidebar, header, search,
// Needs you, the roster): a repository room not renamed by the person shows as owner/repo.
import type { RoomSummary } from '../../../shared/types';

export function roomTitle(room: Pick<RoomSummary, 'kind' | 'name' | 'id' | 'repo'>): string {
  if (room.kind === 'repo' && room.repo && room.name === room.id) return room.repo;
  return room.name;
}
