// Reading tasks: the board (number order, open tasks by default), one task, and a task's
// status history for the UI's drawer.
import type { Db } from '../../store/database';
import { getTaskRow, listTaskEventRows, listTaskRows, type TaskEventRow } from '../../store/taskQueries';
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

export function getBoard(db: Db, roomId: string, filter: BoardFilter = {}): BoardTaskObject[] {
  const status = filter.status ? filter.status : undefined;
  // An unknown status names no task; the board is then simply empty.
  if (status !== undefined && !isTaskStatus(status)) return [];
  const rows = listTaskRows(db, roomId, { status, openOnly: filter.openOnly ?? true });
  return rows.map((row) => toBoardTaskObject(db, row));
}

export function getTask(db: Db, roomId: string, number: number): TaskObject {
  const row = getTaskRow(db, roomId, number);
  if (!row) throw errors.T3();
  return toTaskObject(db, row);
}

export type TaskHistoryEntry = TaskEventRow;

/** Status changes of a task, oldest first: creation (from null), then each move. */
export function listTaskHistory(db: Db, roomId: string, number: number): TaskHistoryEntry[] {
  if (!getTaskRow(db, roomId, number)) throw errors.T3();
  return listTaskEventRows(db, roomId, number);
}
