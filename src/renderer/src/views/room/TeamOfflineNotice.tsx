// A team room whose database cannot be reached now: says so above the room, what still works
// (what is on screen stays, as last loaded) and what does not (changes are refused, nothing
// half-written), and that the app reconnects by itself (team-rooms.md §5).
import type { RoomSummary } from '../../../../shared/types';
import { useAppData } from '../../app/appData';
import { LOCAL } from '../../lib/rooms';

export function TeamOfflineNotice({ room }: { room: RoomSummary }) {
  const { teams } = useAppData();
  if (room.place === LOCAL) return null;
  const team = teams.data?.teams.find((t) => t.name === room.place);
  const status = team?.connection.status;
  if (status !== 'offline' && status !== 'unavailable') return null;
  return (
    <div className="connection-banner" role="status">
      <strong>Team {room.place} is offline, reconnecting.</strong> This room shows what was last loaded; sending and other changes fail
      until the team&apos;s database is back, and nothing is half-written.
    </div>
  );
}
