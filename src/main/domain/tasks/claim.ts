// Claiming a task (accepted → assigned) creates the caller's work lease. A retry by the
// holder returns the same lease and changes nothing.
import type { Queryable, Tx } from '../../store/port';
import { getTaskRow, insertTaskEvent, setTaskStatus, type LeaseRow, type TaskRow } from '../../store/taskQueries';
import type { AgentActor } from '../actor';
import { errors } from '../errors';
import { taskId } from '../ids';
import { activeReviewLease, activeWorkLease, createWorkLease, holderOf, holds, toLeaseObject, type LeaseObject } from './leases';
import { taskEventText } from './eventTexts';
import { changeConcerns, taskParties } from './concerns';
import { announceTaskChange, requireTask, setActorPresence } from './taskEffects';
import { toTaskObject, type TaskObject } from './taskObject';
import { assertTransition } from './transitions';

/** Checks a claim; returns the caller's existing lease when this is a retry. Writes nothing. */
export async function checkClaim(q: Queryable, task: TaskRow, actor: AgentActor): Promise<LeaseRow | null> {
  const work = await activeWorkLease(q, task);
  if (work && !holds(work, actor)) throw errors.T10();
  if (work && task.status === 'assigned') return work;
  assertTransition(task.status, 'assigned');
  if (holds(await activeReviewLease(q, task), actor)) throw errors.T17();
  return null;
}

/** Writes a checked, new claim: the lease, the status, the history row. */
export async function applyClaim(tx: Tx, task: TaskRow, actor: AgentActor): Promise<LeaseRow> {
  const lease = await createWorkLease(tx, task, holderOf(actor));
  await setTaskStatus(tx, task.room_id, task.number, 'assigned');
  await insertTaskEvent(tx, task.room_id, task.number, task.status, 'assigned', actor.label);
  return lease;
}

export async function claimedPresence(tx: Tx, actor: AgentActor, number: number): Promise<void> {
  await setActorPresence(tx, actor, 'working', `claimed ${taskId(number)}`);
}

export async function claimTask(tx: Tx, roomId: string, number: number, actor: AgentActor): Promise<{ task: TaskObject; lease: LeaseObject }> {
  const task = await requireTask(tx, roomId, number);
  const retry = await checkClaim(tx, task, actor);
  const before = await taskParties(tx, task);
  const lease = retry ?? (await applyClaim(tx, task, actor));
  if (!retry) await announceTaskChange(tx, roomId, number, taskEventText.claimed(actor, number), actor, await changeConcerns(tx, before, task));
  await claimedPresence(tx, actor, number);
  return { task: await toTaskObject(tx, (await getTaskRow(tx, roomId, number))!), lease: toLeaseObject(lease) };
}
