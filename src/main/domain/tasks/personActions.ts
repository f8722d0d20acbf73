// What a person does to tasks in the app: move a card (the same transition table binds
// people), accept or cancel a proposal, reassign through a handoff, force-release leases.
import type { Tx } from '../../store/port';
import type { PersonActor } from '../actor';
import { releaseReview } from './reviewLease';
import { updateTask } from './updateTask';
import { handoffTask, releaseWorkLease, type HandoffResult, type ReleaseResult } from './workLease';
import type { TaskObject } from './taskObject';

/** Drag and drop or "Move to…": any move the table allows, except assigning (use reassign). */
export function moveTaskAsPerson(tx: Tx, roomId: string, number: number, person: PersonActor, to: string): Promise<{ task: TaskObject }> {
  return updateTask(tx, roomId, number, person, { status: to });
}

export const acceptTaskAsPerson = (tx: Tx, roomId: string, number: number, person: PersonActor) =>
  moveTaskAsPerson(tx, roomId, number, person, 'accepted');

export const cancelTaskAsPerson = (tx: Tx, roomId: string, number: number, person: PersonActor) =>
  moveTaskAsPerson(tx, roomId, number, person, 'cancelled');

/** "Reassign…": hands any assignable task to a live agent session in the room. */
export function reassignTaskAsPerson(
  tx: Tx, roomId: string, number: number, person: PersonActor, target: { agentKey: string; sessionId?: string | null },
): Promise<HandoffResult> {
  return handoffTask(tx, roomId, number, person, { targetAgentKey: target.agentKey, targetSessionId: target.sessionId });
}

export const forceReleaseWorkLease = (tx: Tx, roomId: string, number: number, person: PersonActor): Promise<ReleaseResult> =>
  releaseWorkLease(tx, roomId, number, person);

export const forceReleaseReview = (tx: Tx, roomId: string, number: number, person: PersonActor) =>
  releaseReview(tx, roomId, number, person);
