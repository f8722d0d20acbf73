// Giving work back and passing it on: release_task_lease, handoff_task_lease, a person's
// reassign and force-release, and releasing a removed agent's work in a room.
import type { Queryable, Tx } from '../../store/port';
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

const taskNow = async (q: Queryable, task: TaskRow) => toTaskObject(q, (await getTaskRow(q, task.room_id, task.number))!);

/**
 * Ends the work lease as released: held statuses go back to accepted (assignee cleared,
 * review lease ended with it); in merged only the lease ends.
 */
async function endWork(tx: Tx, task: TaskRow, lease: LeaseRow, actor: Actor): Promise<LeaseRow> {
  if (isHeldStatus(task.status)) await applyStatusChange(tx, task, 'accepted', actor);
  // Reaching accepted already released it; ending it here as well covers merged.
  return endLeaseRow(tx, lease.lease_id, 'released');
}

/**
 * release_task_lease, and a person's force-release. A `leaseId` must name the active
 * lease (T13); an agent must hold it (T9). A person with nothing to release gets null.
 */
export async function releaseWorkLease(
  tx: Tx, roomId: string, number: number, actor: Actor, input: { leaseId?: string | null } = {},
): Promise<ReleaseResult> {
  const task = await requireTask(tx, roomId, number);
  const work = await activeWorkLease(tx, task);
  if (input.leaseId && input.leaseId !== work?.lease_id) throw errors.T13();
  if (actor.kind === 'agent' && !holds(work, actor)) throw errors.T9();
  if (!work) return { task: await toTaskObject(tx, task), released_lease: null };
  const before = await taskParties(tx, task);
  const ended = await endWork(tx, task, work, actor);
  await setActorPresence(tx, actor, 'idle', IDLE_TEXT);
  await announceTaskChange(tx, roomId, number, taskEventText.released(actor, number), actor, await changeConcerns(tx, before, task));
  return { task: await taskNow(tx, task), released_lease: toLeaseObject(ended) };
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
async function handoffTarget(q: Queryable, roomId: string, input: HandoffInput): Promise<LiveSessionRow> {
  const key = input.targetAgentKey.trim();
  let sessions = key ? await listLiveWorkerSessions(q, roomId, key) : [];
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
export async function handoffTask(tx: Tx, roomId: string, number: number, actor: Actor, input: HandoffInput): Promise<HandoffResult> {
  const task = await requireTask(tx, roomId, number);
  const work = await activeWorkLease(tx, task);
  if (input.leaseId && input.leaseId !== work?.lease_id) throw errors.T13();
  if (actor.kind === 'agent' && !holds(work, actor) && !(work === undefined && task.status === 'accepted')) throw errors.T9();
  if (!work) assertTransition(task.status, 'assigned');
  const target = await handoffTarget(tx, roomId, input);
  const review = await activeReviewLease(tx, task);
  if (review && review.agent_key === target.agent_key) throw errors.T17();

  const fromName = work ? await holderShortName(tx, work) : actorShortName(actor);
  const before = await taskParties(tx, task);
  const released = work ? await endLeaseRow(tx, work.lease_id, 'handed_off') : null;
  const lease = await createWorkLease(tx, task, { label: target.actor_label, agentKey: target.agent_key, sessionId: target.session_id });
  if (task.status === 'accepted') {
    await setTaskStatus(tx, roomId, number, 'assigned');
    await insertTaskEvent(tx, roomId, number, 'accepted', 'assigned', actor.label);
  }
  if (work && holds(work, actor)) await setActorPresence(tx, actor, 'idle', IDLE_TEXT);
  await announceTaskChange(tx, roomId, number, taskEventText.handedOff(number, fromName, target.display_name), actor, await changeConcerns(tx, before, task));
  return { task: await taskNow(tx, task), released_lease: released && toLeaseObject(released), new_lease: toLeaseObject(lease) };
}

/**
 * A person removed an agent from a room: the work leases it held there through this
 * session are released (held tasks back to accepted), one event per task. Returns the
 * task numbers.
 */
export async function releaseWorkLeasesOfSession(tx: Tx, roomId: string, sessionId: string, actor: Actor): Promise<number[]> {
  const leases = (await listActiveLeaseRowsOfSession(tx, sessionId, roomId)).filter((l) => l.kind === 'work');
  for (const lease of leases) {
    const task = (await getTaskRow(tx, roomId, lease.task_number))!;
    const before = await taskParties(tx, task);
    await endWork(tx, task, lease, actor);
    await announceTaskChange(tx, roomId, task.number, taskEventText.released(actor, task.number), actor, await changeConcerns(tx, before, task));
  }
  return leases.map((l) => l.task_number);
}

/** Active leases held through a session, for `resumed_work`. */
export async function activeLeasesOfSession(q: Queryable, sessionId: string): Promise<{ taskNumber: number; kind: LeaseKind }[]> {
  return (await listActiveLeaseRowsOfSession(q, sessionId)).map((l) => ({ taskNumber: l.task_number, kind: l.kind }));
}
