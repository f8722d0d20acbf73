// The rooms on a phone (issue 37): one big row each, unread counts, newest activity first.
import { useAppData } from '../../app/appData';
import { roomRoute, useNavigation } from '../../app/navigation';
import { refOf, roomKey, roomTitle } from '../../lib/rooms';
import { sortRooms } from '../sidebar/Sidebar';
import { PhonePage } from './PhonePage';

export function PhoneRooms() {
  const { rooms } = useAppData();
  const { navigate } = useNavigation();
  return (
    <PhonePage id="phone-rooms-title" title="Rooms" query={rooms} loading="Loading rooms…" empty={{ icon: 'hash', title: 'No rooms yet', text: 'Rooms appear when an agent joins one.' }}>
      {(list) =>
        sortRooms(list).map((room) => (
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
        ))
      }
    </PhonePage>
  );
}
