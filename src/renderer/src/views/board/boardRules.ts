// What a drop or a "Move to…" choice means on the board, decided by the shared transition
// table: accept, cancel, assign (through handoff, as people assign), a plain move — or refused.
import { CLOSED_LANE, HELD_STATUSES, STATUS_LABELS, TRANSITIONS, canTransition, isTaskStatus, type TaskStatus } from '../../../../shared/taskTransitions';
import type { TaskCard } from '../../../../shared/types';

export type TaskAction =
  | { kind: 'accept' }
  | { kind: 'cancel' }
  | { kind: 'assign' }
  | { kind: 'move'; to: TaskStatus };

/** The action for moving a task from `from` to `to`; null when the table refuses it. */
export function dropAction(from: TaskStatus, to: unknown): TaskAction | null {
  if (!isTaskStatus(to) || to === from || !canTransition(from, to)) return null;
  if (from === 'proposed' && to === 'accepted') return { kind: 'accept' };
  if (to === 'cancelled') return { kind: 'cancel' };
  if (from === 'accepted' && to === 'assigned') return { kind: 'assign' };
  return { kind: 'move', to };
}

/** Targets offered by "Move to…": exactly the table's row, in its order. */
export function moveTargets(from: TaskStatus): readonly TaskStatus[] {
  return TRANSITIONS[from];
}

/** Whether a column accepts the card being dragged (its own column is neither allowed nor dimmed). */
export function columnState(dragFrom: TaskStatus | null, column: TaskStatus): 'idle' | 'allowed' | 'refused' | 'origin' {
  if (dragFrom === null) return 'idle';
  if (dragFrom === column) return 'origin';
  return canTransition(dragFrom, column) ? 'allowed' : 'refused';
}

/**
 * Cancelling a held task ends someone's work: ask first. A cancel made by dropping a card
 * always asks: the board may scroll under a held card, so the drop could be an accident.
 */
export function needsConfirmation(task: TaskCard, action: TaskAction, byDrag = false): boolean {
  return action.kind === 'cancel' && (byDrag || HELD_STATUSES.includes(task.status));
}

export function refusalText(task: TaskCard, to: TaskStatus): string {
  const allowed = TRANSITIONS[task.status].map((s) => STATUS_LABELS[s]).join(', ');
  return `${task.id} can't move from ${STATUS_LABELS[task.status]} to ${STATUS_LABELS[to]}. It can go to: ${allowed}.`;
}

/** What the person hears and reads when a task changes column, whoever moved it. */
export function movedText(task: Pick<TaskCard, 'id' | 'status'>): string {
  return `${task.id} is now ${STATUS_LABELS[task.status]}.`;
}

export const isClosedStatus = (status: TaskStatus): boolean => CLOSED_LANE.includes(status);
