// The chips under a card's title: assignee, reviewer and pull request state; the PR chip is
// a real link to the PR when it has an https: URL.
import { safeExternalUrl } from '../../../../shared/externalLinks';
import type { TaskCard } from '../../../../shared/types';
import { AgentChip } from '../../components/AgentChip';
import { ExternalLink } from '../../components/ExternalLink';
import { Icon } from '../../components/Icon';
import { prNumberOf } from './TaskArtifacts';

const PR_WORDS = { open: 'PR open', draft: 'PR draft', merged: 'PR merged', closed: 'PR closed', unknown: 'PR' } as const;
const CHECK_WORDS = { passing: 'checks pass', failing: 'checks fail', pending: 'checks running' } as const;

export function TaskMeta({ task }: { task: TaskCard }) {
  if (!task.assignee && !task.reviewer && !task.pr) return null;
  const pr = task.pr;
  const href = pr?.url ? safeExternalUrl(pr.url) : null;
  const prTitle = pr && (pr.checks ? `${PR_WORDS[pr.state]}, ${CHECK_WORDS[pr.checks]}` : PR_WORDS[pr.state]);
  const prLabel = pr && (
    <>
      <Icon name="pullRequest" size={12} /> {PR_WORDS[pr.state]}
      {href && prNumberOf(href) ? ` ${prNumberOf(href)}` : ''}
      {pr.checks && <span className={`pr-checks pr-checks-${pr.checks}`} aria-label={CHECK_WORDS[pr.checks]} />}
    </>
  );
  return (
    <div className="task-meta">
      {task.assignee && <AgentChip name={task.assignee.name} title={`Assigned to ${task.assignee.name}`} />}
      {task.reviewer && (
        <span className="task-reviewer" title={`${task.reviewer.name} is reviewing`}>
          <Icon name="check" size={12} /> <span className="truncate">{task.reviewer.name}</span>
        </span>
      )}
      {pr &&
        (href ? (
          <ExternalLink href={href} className={`pr-state pr-${pr.state}`} title={`${prTitle}: ${href}`}>
            {prLabel}
          </ExternalLink>
        ) : (
          <span className={`pr-state pr-${pr.state}`} title={prTitle ?? undefined}>
            {prLabel}
          </span>
        ))}
    </div>
  );
}
