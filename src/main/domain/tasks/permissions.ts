// Who may do what (data-model.md §4.3), for agents. People may do everything the
// transition table allows, so these checks run only for agent actors.
import type { Queryable } from '../../store/port';
import type { TaskRow } from '../../store/taskQueries';
import type { AgentActor } from '../actor';
import { errors } from '../errors';
import { activeReviewLease, activeWorkLease, holds } from './leases';
import { isHeldStatus, type TaskStatus } from './transitions';

// A reviewer may send work back, or land it: in_review → these, and merged → done.
const REVIEWER_MOVES: ReadonlySet<TaskStatus> = new Set(['in_progress', 'blocked', 'merged', 'done']);

const createdBy = (task: TaskRow, actor: AgentActor) => task.created_by_agent_key === actor.agentKey;
const lastHeldBy = (task: TaskRow, actor: AgentActor) => task.last_holder_agent_key === actor.agentKey;

/** Checks an agent's status move `task.status -> to` (already in the table; not a claim). */
export async function checkAgentMove(q: Queryable, task: TaskRow, actor: AgentActor, to: TaskStatus): Promise<void> {
  const from = task.status;
  const work = await activeWorkLease(q, task);
  const review = await activeReviewLease(q, task);
  if (from === 'proposed' && to === 'accepted') {
    if (createdBy(task, actor)) throw errors.T11();
    return;
  }
  if (isHeldStatus(from)) {
    if (holds(work, actor)) return;
    if (from === 'in_review' && REVIEWER_MOVES.has(to) && holds(review, actor)) return;
    throw errors.T9();
  }
  if (to === 'accepted') {
    // Reopen from merged, done or cancelled.
    if (createdBy(task, actor) || lastHeldBy(task, actor)) return;
    throw errors.T12();
  }
  if (from === 'merged' && to === 'done') {
    // Closeout: the holder or reviewer; once the work lease is gone, also the creator or last holder.
    if (holds(work, actor) || holds(review, actor)) return;
    if (work) throw errors.T9();
    if (createdBy(task, actor) || lastHeldBy(task, actor)) return;
    throw errors.T12();
  }
  // Left: cancelling an unheld (proposed or accepted) task.
  if (createdBy(task, actor)) return;
  throw errors.T12();
}

/** Editing pr_url or workflow_artifacts: the holder, or the creator when no one holds the task. */
export async function checkAgentEdit(q: Queryable, task: TaskRow, actor: AgentActor): Promise<void> {
  const work = await activeWorkLease(q, task);
  if (work) {
    if (holds(work, actor)) return;
    throw errors.T9();
  }
  if (createdBy(task, actor)) return;
  throw errors.T12();
}
