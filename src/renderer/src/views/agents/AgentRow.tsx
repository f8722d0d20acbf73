// One agent in the roster: name, tool, owner, whether a mention reaches it now (and what that
// means), why it was last woken, that it waits for its owner's approval (a team room's managed agent),
// its own status, rooms, tasks held, tokens, last seen, and its actions.
import type { AgentSession } from '../../../../shared/types';
import { useRoomTitle } from '../../app/appData';
import { Avatar } from '../../components/Avatar';
import { IdeBadge } from '../../components/IdeBadge';
import { Menu } from '../../components/Menu';
import { Icon } from '../../components/Icon';
import { agentSaysText } from '../../../../shared/model/agentState';
import { Time } from '../../components/Time';
import { WAKE_PATH_WORDS } from '../../../../shared/model/workers';
import { ReachabilityDot, ReachabilityLabel } from '../delivery/Reachability';
import { meterDetail, tokensText } from '../delivery/TokenMeter';
import { AgentWakes } from './AgentWakes';

export type AgentAction = 'rename' | 'disconnect' | 'remove';

export function AgentRow({ agent, rooms, showRoom, onAction }: { agent: AgentSession; rooms: string[]; showRoom: boolean; onAction: (agent: AgentSession, action: AgentAction) => void }) {
  const roomName = useRoomTitle();
  // One state word (the reachability line above); what it says it does is its own words.
  const says = agentSaysText(agent.statusText);
  return (
    <li className={agent.ended || agent.reachability === 'offline' ? 'agent-row agent-offline' : 'agent-row'}>
      <Avatar name={agent.name} size={36} />
      <div className="agent-main">
        <div className="agent-name-line">
          <strong className="agent-name truncate" title={agent.name}>
            {agent.name}
          </strong>
          <IdeBadge ide={agent.ide} />
          {agent.owner && (
            <span className="muted truncate" title={agent.owner}>
              {agent.owner}
            </span>
          )}
        </div>
        <div className="agent-status-line">
          {agent.ended ? (
            <span className="reachability">
              <ReachabilityDot reachability="offline" />
              <span className="reachability-label">Disconnected</span>
            </span>
          ) : (
            <ReachabilityLabel reachability={agent.reachability} withMeaning />
          )}
          {!agent.ended && <span className="agent-wake-path">Next mention: {WAKE_PATH_WORDS[agent.wakePath]}</span>}
        </div>
        {agent.approvalWait && !agent.ended && (
          // Only the computer that runs it can answer: said here so nobody elsewhere looks for a button.
          <div className="agent-approval-wait">
            {agent.approvalWait.text}. <span className="muted">Only {agent.approvalWait.person} can allow or deny it, on {agent.machine ?? 'the computer that runs it'}.</span>
          </div>
        )}
        {says && agent.online && !agent.ended && <div className="agent-says" title={says}>{says}</div>}
        <AgentWakes sessionId={agent.sessionId} place={agent.place} lastWake={agent.lastWake} />
      </div>
      <dl className="agent-facts">
        {showRoom && (
          <div>
            <dt>Rooms</dt>
            <dd>{rooms.join(', ')}</dd>
          </div>
        )}
        {agent.machine !== null && (
          <div>
            {/* A managed agent runs on the machine whose app starts its turns. */}
            <dt>{agent.reachability === 'managed' || agent.reachability === 'managed_paused' ? 'Managed on' : 'Machine'}</dt>
            <dd className="truncate" title={agent.machine}>
              {agent.machine}
            </dd>
          </div>
        )}
        <div>
          <dt>Tasks</dt>
          <dd>{agent.tasksHeld.length === 0 ? 'None' : agent.tasksHeld.map((t) => `task_${t.number}`).join(', ')}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd title={meterDetail(agent.meter)}>{tokensText(agent.meter)}</dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>{agent.online && !agent.ended ? 'Now' : <Time iso={agent.lastSeenAt} />}</dd>
        </div>
      </dl>
      <Menu
        label={`Actions for ${agent.name}`}
        items={[
          { key: 'rename', label: 'Rename…', onSelect: () => onAction(agent, 'rename') },
          ...(agent.online && !agent.ended ? [{ key: 'disconnect', label: 'Disconnect…', onSelect: () => onAction(agent, 'disconnect') }] : []),
          ...(!agent.ended ? [{ key: 'remove', label: `Remove from ${roomName(agent, agent.roomName)}…`, danger: true, onSelect: () => onAction(agent, 'remove') }] : []),
        ]}
      >
        <Icon name="more" />
      </Menu>
    </li>
  );
}
