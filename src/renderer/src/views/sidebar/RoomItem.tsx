// A room in the sidebar: kind icon, name (owner/repo for repo rooms), pin, unread count.
import type { RoomSummary } from '../../../../shared/types';
import { Icon } from '../../components/Icon';
import { LOCAL, refOf, roomKey, roomTitle } from '../../lib/rooms';

/** The rooms as the options of a room picker (the roster's filter, Add agent's room); each option's value is its roomKey. */
/** `bare`: without the team's name (an optgroup of the team says it). */
export function RoomOptions({ rooms, bare = false }: { rooms: readonly RoomSummary[]; bare?: boolean }) {
  return rooms.map((r) => (
    <option key={roomKey(refOf(r))} value={roomKey(refOf(r))}>
      {roomTitle(r)}
      {r.place !== LOCAL && !bare ? ` (${r.place})` : ''}
    </option>
  ));
}

export function RoomItem({ room, current, onOpen }: { room: RoomSummary; current: boolean; onOpen: () => void }) {
  const unread = room.unread > 0;
  return (
    <li>
      <button
        type="button"
        className={unread ? 'nav-item room-item unread' : 'nav-item room-item'}
        aria-current={current ? 'page' : undefined}
        onClick={onOpen}
        title={roomTitle(room) === room.id ? room.id : `${roomTitle(room)} (${room.id})`}
      >
        <Icon name={room.kind === 'repo' ? 'repo' : room.kind === 'invite' ? 'ticket' : 'hash'} size={15} />
        <span className="nav-label">
          <span className="truncate">{roomTitle(room)}</span>
        </span>
        {room.pinned && <Icon name="pin" size={12} className="pin" label="Pinned" />}
        {unread && (
          <span className="count" aria-label={`${room.unread} unread`}>
            {room.unread > 999 ? '999+' : room.unread}
          </span>
        )}
      </button>
    </li>
  );
}
