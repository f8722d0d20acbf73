// The steps every task write shares: finding the task, moving its status (with the lease
// endings and history row that go with it), posting its one system event, and presence.
import type { Queryable, Tx } from '../../store/port';
import { getTaskRow, insertTaskEvent, setTaskAssignee, setTaskStatus, type TaskRow } from '../../store/taskQueries';
import { errors } from '../errors';
import { parseNumberedId, taskId } from '../ids';
import type { Actor } from '../actor';
import { postSystemEvent, type EventConcern } from '../systemEvents';
import { resetPresenceAbout, setPresence, type PresenceStatus } from '../sessions/presence';
import { endLeasesForStatus } from './leases';
import { isHeldStatus, type TaskStatus } from './transitions';

/** Parses `task_N`; a malformed id is an unknown task (T3). */
export function parseTaskId(value: unknown): number {
  const n = parseNumberedId('task', value);
  if (n === null) throw errors.T3();
  return n;
}

export async function requireTask(q: Queryable, roomId: string, number: number): Promise<TaskRow> {
  const row = await getTaskRow(q, roomId, number);
  if (!row) throw errors.T3();
  return row;
}

/**
 * Moves the task to `to` (already checked) and records the history row. Reaching
 * `accepted` clears the assignee; leases end as the status requires.
 */
export async function applyStatusChange(tx: Tx, task: TaskRow, to: TaskStatus, actor: Actor): Promise<void> {
  await endLeasesForStatus(tx, task, to);
  if (to === 'accepted') await setTaskAssignee(tx, task.room_id, task.number, null);
  await setTaskStatus(tx, task.room_id, task.number, to);
  await insertTaskEvent(tx, task.room_id, task.number, task.status, to, actor.label);
  // Nobody holds it any more: agents' presence about it ("reviewing task_7") is stale.
  if (!isHeldStatus(to)) await resetPresenceAbout(tx, task.room_id, taskId(task.number), IDLE_TEXT);
}

/**
 * Posts the write's one system event, recording the agents it concerns (none for an edit
 * or a review claim: they wake no one), and tells listeners the task changed.
 */
export async function announceTaskChange(
  tx: Tx, roomId: string, number: number, text: string, actor: Actor, concerns: readonly EventConcern[] = [],
): Promise<void> {
  await postSystemEvent(tx, roomId, text, actor, concerns);
  tx.emit({ type: 'task.changed', roomId, number });
}

export const IDLE_TEXT = 'available in room';

/** Presence after an agent moves a task (data-model.md §5.5). */
export function presenceForStatus(status: TaskStatus, number: number): [PresenceStatus, string] {
  switch (status) {
    case 'in_progress':
      return ['working', `working on ${taskId(number)}`];
    case 'blocked':
      return ['blocked', `blocked on ${taskId(number)}`];
    case 'in_review':
      return ['reviewing', `${taskId(number)} in review`];
    default:
      return ['idle', IDLE_TEXT];
  }
}

/** Sets the acting agent's presence; people have none. */
export async function setActorPresence(tx: Tx, actor: Actor, status: PresenceStatus, text: string): Promise<void> {
  if (actor.kind === 'agent') await setPresence(tx, actor.sessionId, status, text);
}
