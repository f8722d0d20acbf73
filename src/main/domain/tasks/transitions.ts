// Task statuses and the transition table of data-model.md §4.1–4.2, in the spec's order.
// The same table binds agents (update_task) and people (the board's drag and drop).
import { errors } from '../errors';

export const TASK_STATUSES = [
  'proposed', 'accepted', 'assigned', 'in_progress', 'blocked', 'in_review', 'merged', 'done', 'cancelled',
] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Allowed targets per status; the order is the order of the T1 phrase. */
export const TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  proposed: ['accepted', 'cancelled'],
  accepted: ['assigned', 'cancelled'],
  assigned: ['in_progress', 'in_review', 'cancelled'],
  in_progress: ['blocked', 'in_review', 'done', 'cancelled'],
  blocked: ['in_progress', 'in_review', 'cancelled'],
  in_review: ['merged', 'in_progress', 'blocked', 'done', 'cancelled'],
  merged: ['done', 'accepted'],
  done: ['accepted'],
  cancelled: ['accepted'],
};

/** Held statuses: someone holds the work lease. */
export const HELD_STATUSES: ReadonlySet<TaskStatus> = new Set(['assigned', 'in_progress', 'blocked', 'in_review']);
/** Closed statuses; everything else (merged included: it is closeout work) is open. */
export const CLOSED_STATUSES: ReadonlySet<TaskStatus> = new Set(['done', 'cancelled']);

export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);
}

export const isOpenStatus = (status: TaskStatus): boolean => !CLOSED_STATUSES.has(status);
export const isHeldStatus = (status: TaskStatus): boolean => HELD_STATUSES.has(status);

export function canTransition(from: TaskStatus, to: string): to is TaskStatus {
  return isTaskStatus(to) && TRANSITIONS[from].includes(to);
}

/** Throws T1 unless `from -> to` is in the table (an unknown `to` is refused the same way). */
export function assertTransition(from: TaskStatus, to: string): asserts to is TaskStatus {
  if (!canTransition(from, to)) throw errors.T1(from, to, TRANSITIONS[from]);
}
