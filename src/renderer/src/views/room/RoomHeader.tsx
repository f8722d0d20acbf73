// The room header: name, kind with code/id to copy, online agents, room actions.
import type { AgentSession, RoomSummary } from '../../../../shared/types';
import { roomTitle } from '../../lib/rooms';
import { PresenceChips } from './PresenceChips';
import { RoomKindLine } from './RoomKindLine';
import { RoomMenu } from './RoomMenu';

export function RoomHeader({ room, agents, onShowAgents }: { room: RoomSummary; agents: AgentSession[]; onShowAgents: () => void }) {
  return (
    <header className="room-header">
      <div className="room-title">
        <h1>
          {roomTitle(room)}
          {room.archived && <span className="badge">Archived</span>}
        </h1>
        <RoomKindLine room={room} />
      </div>
      <PresenceChips agents={agents} onShowAll={onShowAgents} />
      <RoomMenu room={room} />
    </header>
  );
}
