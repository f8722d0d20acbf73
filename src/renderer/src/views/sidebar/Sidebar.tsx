// The left sidebar: search of every room, Needs you, Agents, Connect agents, the rooms
// (pinned first, then by activity), the account and settings.
import { useState } from 'react';
import type { RoomSummary } from '../../../../shared/types';
import { Icon } from '../../components/Icon';
import { useAppData } from '../../app/appData';
import { roomRoute, useNavigation } from '../../app/navigation';
import { NavItem } from './NavItem';
import { RoomItem } from './RoomItem';
import { AccountItem } from './AccountItem';

export function sortRooms(rooms: RoomSummary[]): RoomSummary[] {
  const activity = (room: RoomSummary) => room.lastActivityAt ?? '';
  return rooms
    .filter((room) => !room.archived)
    .sort((a, b) => Number(b.pinned) - Number(a.pinned) || activity(b).localeCompare(activity(a)) || a.name.localeCompare(b.name));
}

export function Sidebar({ onSearch }: { onSearch: () => void }) {
  const { rooms, needsYou } = useAppData();
  const { route, navigate } = useNavigation();
  const needsCount = needsYou.data?.items.length ?? 0;
  const list = sortRooms(rooms.data ?? []);
  const archived = (rooms.data ?? []).filter((room) => room.archived);
  const [showArchived, setShowArchived] = useState(false);
  return (
    <nav className="sidebar" aria-label="LetAgents">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          L
        </span>
        <span className="brand-name">LetAgents</span>
      </div>
      <ul className="nav-list">
        <NavItem icon="search" label="Search" current={false} onClick={onSearch} hint="Ctrl+K" keyShortcuts="Control+K Meta+K" />
        <NavItem icon="inbox" label="Needs you" count={needsCount} countLabel={`${needsCount} waiting`} current={route.view === 'needsYou'} onClick={() => navigate({ view: 'needsYou' })} />
        <NavItem icon="bot" label="Agents" current={route.view === 'agents'} onClick={() => navigate({ view: 'agents' })} />
        <NavItem icon="plug" label="Connect agents" current={route.view === 'connect'} onClick={() => navigate({ view: 'connect' })} />
      </ul>
      <h2 className="nav-heading" id="rooms-heading">
        Rooms
      </h2>
      <div className="nav-rooms">
        {rooms.status === 'loading' && <p className="nav-note">Loading rooms…</p>}
        {rooms.status === 'error' && (
          <p className="nav-note">
            Rooms could not load.{' '}
            <button type="button" className="link-button" onClick={rooms.reload}>
              Try again
            </button>
          </p>
        )}
        {rooms.status === 'ready' && list.length === 0 && <p className="nav-note">No rooms yet. They appear when an agent joins one.</p>}
        <ul className="nav-list" aria-labelledby="rooms-heading">
          {list.map((room) => (
            <RoomItem key={room.id} room={room} current={route.view === 'room' && route.roomId === room.id} onOpen={() => navigate(roomRoute(room.id))} />
          ))}
        </ul>
        {archived.length > 0 && (
          <>
            <button type="button" className="nav-toggle" aria-expanded={showArchived} onClick={() => setShowArchived((v) => !v)}>
              <Icon name={showArchived ? 'chevronDown' : 'chevronRight'} size={12} /> Archived ({archived.length})
            </button>
            {showArchived && (
              <ul className="nav-list" aria-label="Archived rooms">
                {archived.map((room) => (
                  <RoomItem key={room.id} room={room} current={route.view === 'room' && route.roomId === room.id} onOpen={() => navigate(roomRoute(room.id))} />
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      <div className="sidebar-footer">
        <AccountItem current={route.view === 'signIn'} onOpen={() => navigate({ view: 'signIn' })} />
        <ul className="nav-list">
          <NavItem icon="settings" label="Settings" current={route.view === 'settings'} onClick={() => navigate({ view: 'settings' })} />
        </ul>
      </div>
    </nav>
  );
}
