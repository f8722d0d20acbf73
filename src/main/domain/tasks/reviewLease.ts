// Review authority (data-model.md §4.5): at most one review lease per task, never held
// by the task's assignee; a repeat claim by the holder keeps its lease id.
import type { Tx } from '../../store/port';
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
export async function claimReview(tx: Tx, roomId: string, number: number, actor: AgentActor): Promise<{ task: TaskObject; lease: LeaseObject }> {
  const task = await requireTask(tx, roomId, number);
  if (task.assignee_agent_key !== null && task.assignee_agent_key === actor.agentKey) throw errors.T6();
  const current = await activeReviewLease(tx, task);
  if (current && !holds(current, actor)) throw errors.T7();
  const lease = current ? await touchLeaseRow(tx, current.lease_id) : await createReviewLease(tx, task, actor);
  await setActorPresence(tx, actor, 'reviewing', `reviewing ${taskId(number)}`);
  await announceTaskChange(tx, roomId, number, taskEventText.reviewing(actor, number), actor);
  return { task: await toTaskObject(tx, (await getTaskRow(tx, roomId, number))!), lease: toLeaseObject(lease) };
}

/**
 * release_task_review, and a person's force-release. A `leaseId` must name the active
 * lease (T8); an agent may release only its own (T14). None active: `released_lease` null.
 */
export async function releaseReview(
  tx: Tx, roomId: string, number: number, actor: Actor, input: { leaseId?: string | null } = {},
): Promise<{ task: TaskObject; released_lease: LeaseObject | null }> {
  const task = await requireTask(tx, roomId, number);
  const current = await activeReviewLease(tx, task);
  if (!current) return { task: await toTaskObject(tx, task), released_lease: null };
  if (input.leaseId && input.leaseId !== current.lease_id) throw errors.T8();
  if (actor.kind === 'agent' && !holds(current, actor)) throw errors.T14();
  const ended = await endLeaseRow(tx, current.lease_id, 'released');
  await setActorPresence(tx, actor, 'idle', IDLE_TEXT);
  // A person releasing it concerns the reviewer; the reviewer's own release wakes no one.
  await announceTaskChange(tx, roomId, number, taskEventText.releasedReview(actor, number), actor, actor.kind === 'person' ? leaseEndedConcerns(current) : []);
  return { task: await toTaskObject(tx, (await getTaskRow(tx, roomId, number))!), released_lease: toLeaseObject(ended) };
}
