// Task statuses and the transition table of data-model.md §4.1–4.2. The table itself is
// data in src/shared/taskTransitions.ts, the one copy the board's drag and drop reads too;
// this file adds the domain's checks and the T1 error.
import { errors } from '../errors';
import { canTransition, CLOSED_STATUSES as CLOSED, HELD_STATUSES as HELD, TRANSITIONS, type TaskStatus } from '../../../shared/taskTransitions';

export { TASK_STATUSES, TRANSITIONS, canTransition, isTaskStatus, type TaskStatus } from '../../../shared/taskTransitions';

/** Held statuses: someone holds the work lease. */
export const HELD_STATUSES: ReadonlySet<TaskStatus> = new Set(HELD);
/** Closed statuses; everything else (merged included: it is closeout work) is open. */
export const CLOSED_STATUSES: ReadonlySet<TaskStatus> = new Set(CLOSED);

export const isOpenStatus = (status: TaskStatus): boolean => !CLOSED_STATUSES.has(status);
export const isHeldStatus = (status: TaskStatus): boolean => HELD_STATUSES.has(status);

/** Throws T1 unless `from -> to` is in the table (an unknown `to` is refused the same way). */
export function assertTransition(from: TaskStatus, to: string): asserts to is TaskStatus {
  if (!canTransition(from, to)) throw errors.T1(from, to, TRANSITIONS[from]);
}
