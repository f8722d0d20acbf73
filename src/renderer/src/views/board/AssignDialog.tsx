// "Assign to…" / "Reassign…": hands the work to an agent in the room.
import { useState } from 'react';
import type { AgentSession, TaskCard } from '../../../../shared/types';
import { ActionDialog } from '../../components/ActionDialog';
import { agentStateLabel } from '../../../../shared/model/agentState';
import { ReachabilityDot } from '../delivery/Reachability';
import { IdeBadge } from '../../components/IdeBadge';

export function AssignDialog({ task, agents, onAssign, onClose }: { task: TaskCard; agents: AgentSession[]; onAssign: (agentKey: string) => Promise<unknown>; onClose: () => void }) {
  const candidates = agents.filter((a) => !a.ended && a.agentKey !== task.assignee?.agentKey);
  const [choice, setChoice] = useState<string | null>(null);
  const title = task.assignee ? `Reassign ${task.id}` : `Assign ${task.id}`;
  return (
    <ActionDialog title={title} actionLabel={task.assignee ? 'Hand off' : 'Assign'} dismissLabel="Cancel" ready={choice !== null} onAction={() => onAssign(choice!)} onClose={onClose}>
      {task.assignee && <p className="dialog-lead">{task.assignee.name} holds it now. The new agent takes over its work.</p>}
      {candidates.length === 0 ? (
        <p className="muted">No other agent is in this room. Connect an agent and have it join the room first.</p>
      ) : (
        <fieldset className="choice-list">
          <legend className="visually-hidden">Agent</legend>
          {candidates.map((agent) => (
            <label key={agent.sessionId} className="choice">
              <input type="radio" name="assignee" value={agent.agentKey} checked={choice === agent.agentKey} onChange={() => setChoice(agent.agentKey)} />
              <ReachabilityDot reachability={agent.reachability} />
              <span className="choice-name">{agent.name}</span>
              <IdeBadge ide={agent.ide} />
              <span className="muted">{agentStateLabel(agent)}</span>
            </label>
          ))}
        </fieldset>
      )}
    </ActionDialog>
  );
}
