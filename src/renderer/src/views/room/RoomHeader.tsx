// The room header: name, kind with code/id to copy, the token meter, its agents and whether
// a mention reaches each, room actions.
import type { AgentSession, RoomDelivery, RoomSummary } from '../../../../shared/types';
import { TokenMeter } from '../delivery/TokenMeter';
import { roomTitle } from '../sidebar/RoomItem';
import { PresenceChips } from './PresenceChips';
import { RoomKindLine } from './RoomKindLine';
import { RoomMenu } from './RoomMenu';

export function RoomHeader({ room, agents, delivery, onShowAgents, onBudget }: {
  room: RoomSummary;
  agents: AgentSession[];
  delivery: RoomDelivery | null;
  onShowAgents: () => void;
  onBudget: () => void;
}) {
  return (
    <header className="room-header">
      <div className="room-title">
        <h1>
          {roomTitle(room)}
          {room.archived && <span className="badge">Archived</span>}
        </h1>
        <RoomKindLine room={room} />
        {delivery && <TokenMeter meter={delivery.meter} budgetTokens={delivery.budgetTokens} />}
      </div>
      <PresenceChips agents={agents} onShowAll={onShowAgents} />
      <RoomMenu room={room} onBudget={onBudget} />
    </header>
  );
}
