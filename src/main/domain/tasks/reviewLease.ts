// Review authority (data-model.md §4.5): at most one review lease per task, never held
// by the task's assignee; a repeat claim by the holder keeps its lease id.
import type { Tx } from '../../store/store';
import { endLeaseRow, getTaskRow, touchLeaseRow } from '../../store/taskQueries';
import type { Actor, AgentActor } from '../actor';
import { errors } from '../errors';
import { taskId } from '../ids';
import { taskEventText } from './eventTexts';
import { activeReviewLease, createReviewLease, holds, toLeaseObject, type LeaseObject } from './leases';
import { leaseEndedConcerns } from './concerns';
import { announceTaskChange, IDLE_TEXT, requireTask, setActorPresence } from './taskEffects';
import { toTaskObject, type TaskObject } from './taskObject';

/**
 * claim_task_review. A repeat by the holder (say, after changes were requested) reuses
 * the lease id and announces the review again.
 */
export function claimReview(tx: Tx, roomId: string, number: number, actor: AgentActor): { task: TaskObject; lease: LeaseObject } {
  const task = requireTask(tx.db, roomId, number);
  if (task.assignee_agent_key !== null && task.assignee_agent_key === actor.agentKey) throw errors.T6();
  const current = activeReviewLease(tx.db, task);
  if (current && !holds(current, actor)) throw errors.T7();
  const lease = current ? touchLeaseRow(tx, current.lease_id) : createReviewLease(tx, task, actor);
  setActorPresence(tx, actor, 'reviewing', `reviewing ${taskId(number)}`);
  announceTaskChange(tx, roomId, number, taskEventText.reviewing(actor, number), actor);
  return { task: toTaskObject(tx.db, getTaskRow(tx.db, roomId, number)!), lease: toLeaseObject(lease) };
}

/**
 * release_task_review, and a person's force-release. A `leaseId` must name the active
 * lease (T8); an agent may release only its own (T14). None active: `released_lease` null.
 */
export function releaseReview(
  tx: Tx, roomId: string, number: number, actor: Actor, input: { leaseId?: string | null } = {},
): { task: TaskObject; released_lease: LeaseObject | null } {
  const task = requireTask(tx.db, roomId, number);
  const current = activeReviewLease(tx.db, task);
  if (!current) return { task: toTaskObject(tx.db, task), released_lease: null };
  if (input.leaseId && input.leaseId !== current.lease_id) throw errors.T8();
  if (actor.kind === 'agent' && !holds(current, actor)) throw errors.T14();
  const ended = endLeaseRow(tx, current.lease_id, 'released');
  setActorPresence(tx, actor, 'idle', IDLE_TEXT);
  // A person releasing it concerns the reviewer; the reviewer's own release wakes no one.
  announceTaskChange(tx, roomId, number, taskEventText.releasedReview(actor, number), actor, actor.kind === 'person' ? leaseEndedConcerns(current) : []);
  return { task: toTaskObject(tx.db, getTaskRow(tx.db, roomId, number)!), released_lease: toLeaseObject(ended) };
}
