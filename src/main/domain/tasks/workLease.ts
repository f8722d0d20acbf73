// Giving work back and passing it on: release_task_lease, handoff_task_lease, a person's
// reassign and force-release, and releasing a removed agent's work in a room.
import type { Tx } from '../../store/store';
import type { Db } from '../../store/database';
import {
  endLeaseRow, getTaskRow, insertTaskEvent, listActiveLeaseRowsOfSession, listLiveWorkerSessions,
  setTaskStatus, type LeaseKind, type LeaseRow, type LiveSessionRow, type TaskRow,
} from '../../store/taskQueries';
import { actorShortName, type Actor } from '../actor';
import { errors } from '../errors';
import { taskEventText } from './eventTexts';
import { activeReviewLease, activeWorkLease, createWorkLease, holderShortName, holds, toLeaseObject, type LeaseObject } from './leases';
import { changeConcerns, taskParties } from './concerns';
import { announceTaskChange, applyStatusChange, IDLE_TEXT, requireTask, setActorPresence } from './taskEffects';
import { toTaskObject, type TaskObject } from './taskObject';
import { assertTransition, isHeldStatus } from './transitions';

export interface ReleaseResult {
  task: TaskObject;
  released_lease: LeaseObject | null;
}

const taskNow = (db: Db, task: TaskRow) => toTaskObject(db, getTaskRow(db, task.room_id, task.number)!);

/**
 * Ends the work lease as released: held statuses go back to accepted (assignee cleared,
 * review lease ended with it); in merged only the lease ends.
 */
function endWork(tx: Tx, task: TaskRow, lease: LeaseRow, actor: Actor): LeaseRow {
  if (isHeldStatus(task.status)) applyStatusChange(tx, task, 'accepted', actor);
  // Reaching accepted already released it; ending it here as well covers merged.
  return endLeaseRow(tx, lease.lease_id, 'released');
}

/**
 * release_task_lease, and a person's force-release. A `leaseId` must name the active
 * lease (T13); an agent must hold it (T9). A person with nothing to release gets null.
 */
export function releaseWorkLease(
  tx: Tx, roomId: string, number: number, actor: Actor, input: { leaseId?: string | null } = {},
): ReleaseResult {
  const task = requireTask(tx.db, roomId, number);
  const work = activeWorkLease(tx.db, task);
  if (input.leaseId && input.leaseId !== work?.lease_id) throw errors.T13();
  if (actor.kind === 'agent' && !holds(work, actor)) throw errors.T9();
  if (!work) return { task: toTaskObject(tx.db, task), released_lease: null };
  const before = taskParties(tx.db, task);
  const ended = endWork(tx, task, work, actor);
  setActorPresence(tx, actor, 'idle', IDLE_TEXT);
  announceTaskChange(tx, roomId, number, taskEventText.released(actor, number), actor, changeConcerns(tx.db, before, task));
  return { task: taskNow(tx.db, task), released_lease: toLeaseObject(ended) };
}

export interface HandoffInput {
  targetAgentKey: string;
  targetSessionId?: string | null;
  leaseId?: string | null;
}

export interface HandoffResult {
  task: TaskObject;
  released_lease: LeaseObject | null;
  new_lease: LeaseObject;
}

/** The live worker session in this room that receives a handoff (T15, T16). */
function handoffTarget(db: Db, roomId: string, input: HandoffInput): LiveSessionRow {
  const key = input.targetAgentKey.trim();
  let sessions = key ? listLiveWorkerSessions(db, roomId, key) : [];
  if (input.targetSessionId) sessions = sessions.filter((s) => s.session_id === input.targetSessionId);
  if (sessions.length === 0) throw errors.T15(key);
  if (sessions.length > 1) throw errors.T16();
  return sessions[0];
}

/**
 * handoff_task_lease, and a person's reassign. An agent must hold the work lease, or
 * the task must be accepted with no holder (T9); people may hand off any task that can
 * be assigned. `accepted` becomes `assigned`; other statuses stay.
 */
export function handoffTask(tx: Tx, roomId: string, number: number, actor: Actor, input: HandoffInput): HandoffResult {
  const task = requireTask(tx.db, roomId, number);
  const work = activeWorkLease(tx.db, task);
  if (input.leaseId && input.leaseId !== work?.lease_id) throw errors.T13();
  if (actor.kind === 'agent' && !holds(work, actor) && !(work === undefined && task.status === 'accepted')) throw errors.T9();
  if (!work) assertTransition(task.status, 'assigned');
  const target = handoffTarget(tx.db, roomId, input);
  const review = activeReviewLease(tx.db, task);
  if (review && review.agent_key === target.agent_key) throw errors.T17();

  const fromName = work ? holderShortName(tx.db, work) : actorShortName(actor);
  const before = taskParties(tx.db, task);
  const released = work ? endLeaseRow(tx, work.lease_id, 'handed_off') : null;
  const lease = createWorkLease(tx, task, { label: target.actor_label, agentKey: target.agent_key, sessionId: target.session_id });
  if (task.status === 'accepted') {
    setTaskStatus(tx, roomId, number, 'assigned');
    insertTaskEvent(tx, roomId, number, 'accepted', 'assigned', actor.label);
  }
  if (work && holds(work, actor)) setActorPresence(tx, actor, 'idle', IDLE_TEXT);
  announceTaskChange(tx, roomId, number, taskEventText.handedOff(number, fromName, target.display_name), actor, changeConcerns(tx.db, before, task));
  return { task: taskNow(tx.db, task), released_lease: released && toLeaseObject(released), new_lease: toLeaseObject(lease) };
}

/**
 * A person removed an agent from a room: the work leases it held there through this
 * session are released (held tasks back to accepted), one event per task. Returns the
 * task numbers.
 */
export function releaseWorkLeasesOfSession(tx: Tx, roomId: string, sessionId: string, actor: Actor): number[] {
  const leases = listActiveLeaseRowsOfSession(tx.db, sessionId, roomId).filter((l) => l.kind === 'work');
  for (const lease of leases) {
    const task = getTaskRow(tx.db, roomId, lease.task_number)!;
    const before = taskParties(tx.db, task);
    endWork(tx, task, lease, actor);
    announceTaskChange(tx, roomId, task.number, taskEventText.released(actor, task.number), actor, changeConcerns(tx.db, before, task));
  }
  return leases.map((l) => l.task_number);
}

/** Active leases held through a session, for `resumed_work`. */
export function activeLeasesOfSession(db: Db, sessionId: string): { taskNumber: number; kind: LeaseKind }[] {
  return listActiveLeaseRowsOfSession(db, sessionId).map((l) => ({ taskNumber: l.task_number, kind: l.kind }));
}
