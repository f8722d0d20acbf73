// The room header: name (shortened with an ellipsis, whole on hover), its team when it is a
// team's room, kind with code/id to copy, its agents and whether a mention
// reaches each, search in this room, and the room actions. Token use is in the room's
// "Token budget…" dialog: a number for the curious, not for every glance (issue 27).
import type { AgentSession, RoomSummary } from '../../../../shared/types';
import { Icon } from '../../components/Icon';
import { LOCAL, roomTitle } from '../../lib/rooms';
import { PresenceChips } from './PresenceChips';
import { RoomKindLine } from './RoomKindLine';
import { RoomMenu } from './RoomMenu';

export interface RoomHeaderProps {
  room: RoomSummary;
  agents: AgentSession[];
  onShowAgents: () => void;
  onSearch: () => void;
  /** Ctrl/Cmd+F opens it too (the desktop app; a browser keeps its own find). */
  searchShortcut: boolean;
  onBudget: () => void;
}

export function RoomHeader({ room, agents, onShowAgents, onSearch, searchShortcut, onBudget }: RoomHeaderProps) {
  const title = roomTitle(room);
  return (
    <header className="room-header">
      <div className="room-title">
        <h1>
          <span className="truncate" title={title}>{title}</span>
          {room.archived && <span className="badge">Archived</span>}
          {room.place !== LOCAL && (
            <span className="badge" title="Shared through the team's database with every machine that added the team">
              Team {room.place}
            </span>
          )}
        </h1>
        <RoomKindLine room={room} />
      </div>
      <PresenceChips agents={agents} onShowAll={onShowAgents} />
      <button
        type="button"
        className="btn btn-icon"
        onClick={onSearch}
        aria-label="Search this room"
        title={searchShortcut ? 'Search this room (Ctrl+F)' : 'Search this room'}
        aria-keyshortcuts={searchShortcut ? 'Control+F Meta+F' : undefined}
      >
        <Icon name="search" />
      </button>
      <RoomMenu room={room} onBudget={onBudget} />
    </header>
  );
}
