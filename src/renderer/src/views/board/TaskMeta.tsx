// The chips under a card's title: assignee, reviewer and pull request state.
import type { TaskCard } from '../../../../shared/types';
import { AgentChip } from '../../components/AgentChip';
import { Icon } from '../../components/Icon';

const PR_WORDS = { open: 'PR open', draft: 'PR draft', merged: 'PR merged', closed: 'PR closed', unknown: 'PR' } as const;
const CHECK_WORDS = { passing: 'checks pass', failing: 'checks fail', pending: 'checks running' } as const;

export function TaskMeta({ task }: { task: TaskCard }) {
  if (!task.assignee && !task.reviewer && !task.pr) return null;
  return (
    <div className="task-meta">
      {task.assignee && <AgentChip name={task.assignee.name} title={`Assigned to ${task.assignee.name}`} />}
      {task.reviewer && (
        <span className="task-reviewer" title={`${task.reviewer.name} is reviewing`}>
          <Icon name="check" size={12} /> {task.reviewer.name}
        </span>
      )}
      {task.pr && (
        <span className={`pr-state pr-${task.pr.state}`} title={task.pr.checks ? `${PR_WORDS[task.pr.state]}, ${CHECK_WORDS[task.pr.checks]}` : PR_WORDS[task.pr.state]}>
          <Icon name="pullRequest" size={12} /> {PR_WORDS[task.pr.state]}
          {task.pr.checks && <span className={`pr-checks pr-checks-${task.pr.checks}`} aria-label={CHECK_WORDS[task.pr.checks]} />}
        </span>
      )}
    </div>
  );
}
