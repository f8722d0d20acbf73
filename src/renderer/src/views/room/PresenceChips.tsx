// The room's reachable agents in the header (online, or managed: the app starts them), the
// ones a mention reaches soonest first: name, whether a mention reaches it now (issue 14), and
// what it says it is doing (its own status text). Hover says what each state means.
import { REACHABILITY_WORDS } from '../../../../shared/model/workers';
import type { AgentSession } from '../../../../shared/types';
import { AgentChip } from '../../components/AgentChip';
import { agentSaysText } from '../../../../shared/model/agentState';
import { ReachabilityDot } from '../delivery/Reachability';
import { sortAgents } from '../agents/AgentsRoster';

const MAX_CHIPS = 3;

export function PresenceChips({ agents, onShowAll }: { agents: AgentSession[]; onShowAll: () => void }) {
  const online = sortAgents(agents.filter((agent) => !agent.ended && (agent.online || agent.reachability === 'managed')));
  if (online.length === 0) return <span className="presence-empty">No agents online</span>;
  const shown = online.slice(0, MAX_CHIPS);
  return (
    <ul className="presence" aria-label={`${online.length} agents online`}>
      {shown.map((agent) => {
        const words = REACHABILITY_WORDS[agent.reachability];
        const says = agentSaysText(agent.statusText);
        return (
          <li key={agent.sessionId}>
            <AgentChip
              name={agent.name}
              dot={<ReachabilityDot reachability={agent.reachability} />}
              label={words.label}
              statusText={agent.statusText || undefined}
              title={`${agent.name} — ${words.label}: ${words.meaning}${says ? ` ${says}.` : ''}`}
            />
          </li>
        );
      })}
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
