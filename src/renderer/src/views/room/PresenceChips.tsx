// Online agents in the room header: name, status and status text.
import type { AgentSession } from '../../../../shared/types';
import { AgentChip } from '../../components/AgentChip';
import { STATUS_WORDS } from '../../components/StatusDot';

const MAX_CHIPS = 3;

export function PresenceChips({ agents, onShowAll }: { agents: AgentSession[]; onShowAll: () => void }) {
  const online = agents.filter((agent) => agent.online && !agent.ended);
  if (online.length === 0) return <span className="presence-empty">No agents online</span>;
  const shown = online.slice(0, MAX_CHIPS);
  return (
    <ul className="presence" aria-label={`${online.length} agents online`}>
      {shown.map((agent) => (
        <li key={agent.sessionId}>
          <AgentChip
            name={agent.name}
            status={agent.status}
            statusText={agent.statusText || STATUS_WORDS[agent.status]}
            title={`${agent.name} — ${STATUS_WORDS[agent.status]}${agent.statusText ? `: ${agent.statusText}` : ''}`}
          />
        </li>
      ))}
      {online.length > MAX_CHIPS && (
        <li>
          <button type="button" className="link-button" onClick={onShowAll}>
            +{online.length - MAX_CHIPS} more
          </button>
        </li>
      )}
    </ul>
  );
}
