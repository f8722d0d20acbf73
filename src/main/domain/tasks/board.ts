// Reading tasks: the board (number order, open tasks by default), one task, and a task's
// status history for the UI's drawer.
import type { Queryable } from '../../store/port';
import { getTaskRow, listActiveLeaseRowsOfRoom, listTaskEventRows, listTaskRows, type LeaseRow, type TaskEventRow } from '../../store/taskQueries';
import { errors } from '../errors';
import { isTaskStatus, type TaskStatus } from './transitions';
import { toBoardTaskObject, toTaskObject, type BoardTaskObject, type TaskObject } from './taskObject';

export const ARTIFACT_DETAIL_INSTRUCTION =
  'Only the last 4 workflow artifacts per task are shown. Call get_room_artifacts with task_id for the full list.';

export interface BoardFilter {
  /** Only tasks in this status; `openOnly` is then ignored. */
  status?: TaskStatus | string | null;
  /** Drop done and cancelled tasks (merged stays: it is closeout work). Default true. */
  openOnly?: boolean;
}

export async function getBoard(q: Queryable, roomId: string, filter: BoardFilter = {}): Promise<BoardTaskObject[]> {
  const status = filter.status ? filter.status : undefined;
  // An unknown status names no task; the board is then simply empty.
  if (status !== undefined && !isTaskStatus(status)) return [];
  const rows = await listTaskRows(q, roomId, { status, openOnly: filter.openOnly ?? true });
  if (rows.length === 0) return [];
  // One query for the leases of the whole board, not one per task.
  const leases = new Map<number, LeaseRow[]>();
  for (const lease of await listActiveLeaseRowsOfRoom(q, roomId)) {
    const list = leases.get(lease.task_number);
    if (list) list.push(lease);
    else leases.set(lease.task_number, [lease]);
  }
  return rows.map((row) => toBoardTaskObject(row, leases.get(row.number) ?? []));
}

export async function getTask(q: Queryable, roomId: string, number: number): Promise<TaskObject> {
  const row = await getTaskRow(q, roomId, number);
  if (!row) throw errors.T3();
  return toTaskObject(q, row);
}

export type TaskHistoryEntry = TaskEventRow;

/** Status changes of a task, oldest first: creation (from null), then each move. */
export async function listTaskHistory(q: Queryable, roomId: string, number: number): Promise<TaskHistoryEntry[]> {
  if (!(await getTaskRow(q, roomId, number))) throw errors.T3();
  return listTaskEventRows(q, roomId, number);
}
