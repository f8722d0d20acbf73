// Tasks as the board's cards and the task drawer show them (the contract's TaskCard and
// TaskDetail), built from the domain's task object and the stored row.
import type { TaskCard, TaskDetail } from '../../../shared/model/tasks';
import type { AppParts } from '../appParts';
import { parseNumberedId } from '../../domain/ids';
import { getMessageRow, latestNumber } from '../../domain/messages/read';
import { getTask, listTaskHistory, type TaskObject } from '../../domain/tasks';
import type { Queryable } from '../../store/port';
import { getTaskRow, type TaskRow } from '../../store/taskQueries';
import { personOf } from './people';
import { pullRequestStateOf } from './pullRequests';

/** How many messages posted in the task's creation write are looked at for its event. */
const CREATION_SCAN = 50;

/** `place`: the room's ('local' or a team's name). */
export function toTaskCard(app: AppParts, place: string, task: TaskObject, row: TaskRow): TaskCard {
  const review = task.active_leases.find((l) => l.kind === 'review');
  return {
    id: task.id,
    number: row.number,
    roomId: row.room_id,
    place,
    title: task.title,
    status: task.status,
    assignee: task.assignee === null ? null : personOf(task.assignee, task.assignee_agent_key),
    reviewer: review ? personOf(review.holder_label, review.agent_key) : null,
    pr: pullRequestStateOf(app, place, row.room_id, row.number, task),
    createdBy: personOf(task.created_by, row.created_by_agent_key),
    proposedByAgent: row.created_by_agent_key !== null,
    createdAt: task.created_at,
    updatedAt: task.updated_at,
  };
}

/** One task's card (T3 when it does not exist). */
export async function taskCard(app: AppParts, q: Queryable, place: string, roomId: string, number: number): Promise<TaskCard> {
  const task = await getTask(q, roomId, number);
  return toTaskCard(app, place, task, (await getTaskRow(q, roomId, number))!);
}

export async function taskDetail(app: AppParts, q: Queryable, place: string, roomId: string, number: number): Promise<TaskDetail> {
  const task = await getTask(q, roomId, number);
  const row = (await getTaskRow(q, roomId, number))!;
  return {
    ...toTaskCard(app, place, task, row),
    description: task.description,
    history: (await listTaskHistory(q, roomId, number)).map((e) => ({ from: e.from_status, to: e.to_status, actor: e.actor_label, at: e.created_at })),
    artifacts: task.workflow_artifacts,
    sourceMessageNumber: task.source_message_id === null ? null : parseNumberedId('msg', task.source_message_id),
    discussionRootNumber: await creationEventNumber(q, row),
  };
}

/**
 * The task's creation event ("Juniper proposed task_7: …"), where its discussion lives.
 * The row does not store it, but the event was posted in the same write, so it carries
 * the task's created_at: a binary search on time (numbers grow in commit order) finds it.
 */
export async function creationEventNumber(q: Queryable, task: Pick<TaskRow, 'room_id' | 'number' | 'created_at'>): Promise<number | null> {
  let lo = 1;
  let hi = await latestNumber(q, task.room_id);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const at = (await getMessageRow(q, task.room_id, mid))?.created_at ?? '';
    if (at < task.created_at) lo = mid + 1;
    else hi = mid;
  }
  const pattern = new RegExp(` (?:proposed|added) task_${task.number}: `);
  for (let n = lo; n < lo + CREATION_SCAN; n++) {
    const row = await getMessageRow(q, task.room_id, n);
    if (!row || row.created_at !== task.created_at) return null;
    if (row.source === 'system' && pattern.test(row.text)) return n;
  }
  return null;
}
