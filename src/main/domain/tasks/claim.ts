// Claiming a task (accepted → assigned) creates the caller's work lease. A retry by the
// holder returns the same lease and changes nothing.
import type { Tx } from '../../store/store';
import type { Db } from '../../store/database';
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
export function checkClaim(db: Db, task: TaskRow, actor: AgentActor): LeaseRow | null {
  const work = activeWorkLease(db, task);
  if (work && !holds(work, actor)) throw errors.T10();
  if (work && task.status === 'assigned') return work;
  assertTransition(task.status, 'assigned');
  if (holds(activeReviewLease(db, task), actor)) throw errors.T17();
  return null;
}

/** Writes a checked, new claim: the lease, the status, the history row. */
export function applyClaim(tx: Tx, task: TaskRow, actor: AgentActor): LeaseRow {
  const lease = createWorkLease(tx, task, holderOf(actor));
  setTaskStatus(tx, task.room_id, task.number, 'assigned');
  insertTaskEvent(tx, task.room_id, task.number, task.status, 'assigned', actor.label);
  return lease;
}

export function claimedPresence(tx: Tx, actor: AgentActor, number: number): void {
  setActorPresence(tx, actor, 'working', `claimed ${taskId(number)}`);
}

export function claimTask(tx: Tx, roomId: string, number: number, actor: AgentActor): { task: TaskObject; lease: LeaseObject } {
  const task = requireTask(tx.db, roomId, number);
  const retry = checkClaim(tx.db, task, actor);
  const before = taskParties(tx.db, task);
  const lease = retry ?? applyClaim(tx, task, actor);
  if (!retry) announceTaskChange(tx, roomId, number, taskEventText.claimed(actor, number), actor, changeConcerns(tx.db, before, task));
  claimedPresence(tx, actor, number);
  return { task: toTaskObject(tx.db, getTaskRow(tx.db, roomId, number)!), lease: toLeaseObject(lease) };
}
