// Task statuses and the transition table (data-model.md §4.1–4.2) as data: the ONE copy
// that the domain (agents' update_task) and the board (people's drag and drop) both read.

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
export const HELD_STATUSES: readonly TaskStatus[] = ['assigned', 'in_progress', 'blocked', 'in_review'];
/** Closed statuses; everything else (merged included: it is closeout work) is open. */
export const CLOSED_STATUSES: readonly TaskStatus[] = ['done', 'cancelled'];

export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: TaskStatus, to: string): to is TaskStatus {
  return isTaskStatus(to) && TRANSITIONS[from].includes(to);
}

/** Board columns, in order; the last three share the collapsible "Closed" lane. */
export const BOARD_COLUMNS: readonly TaskStatus[] = ['proposed', 'accepted', 'assigned', 'in_progress', 'blocked', 'in_review'];
export const CLOSED_LANE: readonly TaskStatus[] = ['merged', 'done', 'cancelled'];

/** Words people see for each status. */
export const STATUS_LABELS: Readonly<Record<TaskStatus, string>> = {
  proposed: 'Proposed',
  accepted: 'Accepted',
  assigned: 'Assigned',
  in_progress: 'In progress',
  blocked: 'Blocked',
  in_review: 'In review',
  merged: 'Merged',
  done: 'Done',
  cancelled: 'Cancelled',
};

/**
 * A room event's text as people read it: the status ids agents see in "task_7 moved from
 * in_progress to in_review by Juniper." become the labels above ("In progress", "In review").
 */
export function withStatusLabels(text: string): string {
  return text.replace(/\b(moved from )(\w+)( to )(\w+)\b/g, (all, before: string, from: string, middle: string, to: string) =>
    isTaskStatus(from) && isTaskStatus(to) ? `${before}${STATUS_LABELS[from]}${middle}${STATUS_LABELS[to]}` : all,
  );
}
