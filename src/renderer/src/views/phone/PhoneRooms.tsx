// The rooms on a phone (issue 37): one big row each, unread counts, newest activity first.
import { useAppData } from '../../app/appData';
import { roomRoute, useNavigation } from '../../app/navigation';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { refOf, roomKey, roomTitle } from '../../lib/rooms';
import { sortRooms } from '../sidebar/Sidebar';

export function PhoneRooms() {
  const { rooms } = useAppData();
  const { navigate } = useNavigation();
  const body = () => {
    if (rooms.status === 'loading') return <Loading label="Loading rooms…" />;
    if (rooms.status === 'error' && !rooms.data) return <ErrorState message={rooms.error} onRetry={rooms.reload} />;
    const list = sortRooms(rooms.data ?? []);
    if (list.length === 0) return <EmptyState icon="hash" title="No rooms yet">Rooms appear when an agent joins one.</EmptyState>;
    return (
      <ul className="phone-list" aria-labelledby="phone-rooms-title">
        {list.map((room) => (
          <li key={roomKey(refOf(room))}>
            <button type="button" className="phone-row" onClick={() => navigate(roomRoute(refOf(room)))}>
              <span className="phone-row-title truncate">{roomTitle(room)}</span>
              {room.unread > 0 && (
                <span className="count" aria-label={`${room.unread} unread`}>
                  {room.unread > 999 ? '999+' : room.unread}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    );
  };
  return (
    <section className="page phone-page" aria-labelledby="phone-rooms-title">
      <header className="page-header">
        <h1 id="phone-rooms-title">Rooms</h1>
      </header>
      {body()}
    </section>
  );
}
