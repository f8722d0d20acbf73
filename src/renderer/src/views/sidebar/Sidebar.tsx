// The left sidebar: search of every room, Needs you, Agents, Automations, Connect agents, the rooms
// (grouped by place once there are teams — "This computer", then each team with its
// connection state; in each, pinned first, then by activity), New room, the account and
// settings.
import { useState } from 'react';
import type { RoomSummary, TeamSummary } from '../../../../shared/types';
import { waitsForPerson } from '../../../../shared/model/needsYou';
import { Icon } from '../../components/Icon';
import { useAppData } from '../../app/appData';
import { roomRoute, useNavigation } from '../../app/navigation';
import { LOCAL, refOf, roomKey, sameRoom } from '../../lib/rooms';
import { CONNECTION_WORDS } from '../settings/teams/teamWords';
import { NavItem } from './NavItem';
import { RoomItem } from './RoomItem';
import { AccountItem } from './AccountItem';
import { NewRoomDialog } from './NewRoomDialog';

export function sortRooms(rooms: RoomSummary[]): RoomSummary[] {
  const activity = (room: RoomSummary) => room.lastActivityAt ?? '';
  return rooms
    .filter((room) => !room.archived)
    .sort((a, b) => Number(b.pinned) - Number(a.pinned) || activity(b).localeCompare(activity(a)) || a.name.localeCompare(b.name));
}

interface PlaceGroup {
  readonly place: string;
  readonly team: TeamSummary | null;
  readonly rooms: RoomSummary[];
}

/** This computer's rooms, then each team's (every team shows, with its state, even without rooms yet). */
function groupByPlace(rooms: RoomSummary[], teams: readonly TeamSummary[]): PlaceGroup[] {
  return [
    { place: LOCAL, team: null, rooms: rooms.filter((r) => r.place === LOCAL) },
    ...teams.map((team) => ({ place: team.name, team, rooms: rooms.filter((r) => r.place === team.name) })),
  ];
}

export function Sidebar({ onSearch }: { onSearch: () => void }) {
  const { rooms, teams, needsYou } = useAppData();
  const { route, navigate } = useNavigation();
  const needsCount = needsYou.data?.items.filter(waitsForPerson).length ?? 0;
  const list = sortRooms(rooms.data ?? []);
  const archived = (rooms.data ?? []).filter((room) => room.archived);
  const [showArchived, setShowArchived] = useState(false);
  const [creating, setCreating] = useState(false);
  const teamList = teams.data?.teams ?? [];
  const isCurrent = (room: RoomSummary) => route.view === 'room' && sameRoom(refOf(room), route);
  const item = (room: RoomSummary) => <RoomItem key={roomKey(refOf(room))} room={room} current={isCurrent(room)} onOpen={() => navigate(roomRoute(refOf(room)))} />;
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
        <NavItem icon="clock" label="Automations" current={route.view === 'automations'} onClick={() => navigate({ view: 'automations' })} />
        <NavItem icon="plug" label="Connect agents" current={route.view === 'connect'} onClick={() => navigate({ view: 'connect' })} />
      </ul>
      <div className="nav-heading-row">
        <h2 className="nav-heading" id="rooms-heading">
          Rooms
        </h2>
        <button type="button" className="btn btn-icon nav-add" onClick={() => setCreating(true)} aria-label="New room" title="New room">
          <Icon name="plus" size={14} />
        </button>
      </div>
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
        {rooms.status === 'ready' && list.length === 0 && teamList.length === 0 && <p className="nav-note">No rooms yet. They appear when an agent joins one.</p>}
        {teamList.length === 0 ? (
          <ul className="nav-list" aria-labelledby="rooms-heading">
            {list.map(item)}
          </ul>
        ) : (
          groupByPlace(list, teamList).map((group) => (
            <section key={group.place} className="nav-place" aria-labelledby={`place-${group.place}`}>
              <h3 className="nav-place-heading" id={`place-${group.place}`}>
                <span className="truncate">{group.team ? group.team.name : 'This computer'}</span>
                {group.team && (
                  <span className={`pill team-state nav-place-state team-${group.team.connection.status}`}>
                    <span className="status-dot" aria-hidden="true" />
                    {CONNECTION_WORDS[group.team.connection.status]}
                  </span>
                )}
              </h3>
              {group.rooms.length === 0 ? (
                <p className="nav-note">No rooms yet.</p>
              ) : (
                <ul className="nav-list" aria-labelledby={`place-${group.place}`}>
                  {group.rooms.map(item)}
                </ul>
              )}
            </section>
          ))
        )}
        {archived.length > 0 && (
          <>
            <button type="button" className="nav-toggle" aria-expanded={showArchived} onClick={() => setShowArchived((v) => !v)}>
              <Icon name={showArchived ? 'chevronDown' : 'chevronRight'} size={12} /> Archived ({archived.length})
            </button>
            {showArchived && (
              <ul className="nav-list" aria-label="Archived rooms">
                {archived.map(item)}
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
      {creating && (
        <NewRoomDialog
          teams={teams.data}
          onCreated={(room) => {
            rooms.reload();
            navigate(roomRoute(refOf(room)));
          }}
          onClose={() => setCreating(false)}
        />
      )}
    </nav>
  );
}
