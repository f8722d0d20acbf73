// update_task and complete_task: status moves under the transition table and §4.3, plus
// edits of pr_url and workflow_artifacts. Every check runs before the first write.
import type { Tx } from '../../store/port';
import { getTaskRow, setTaskArtifacts, setTaskPrUrl, type TaskRow } from '../../store/taskQueries';
import type { Actor } from '../actor';
import { appErrors, errors } from '../errors';
import { applyClaim, checkClaim, claimedPresence } from './claim';
import { changeConcerns, taskParties } from './concerns';
import { taskEventText } from './eventTexts';
import { activeWorkLease, holds } from './leases';
import { checkAgentEdit, checkAgentMove } from './permissions';
import { announceTaskChange, applyStatusChange, presenceForStatus, requireTask, setActorPresence } from './taskEffects';
import { toTaskObject, type TaskObject } from './taskObject';
import { assertTransition, type TaskStatus } from './transitions';
import { checkPrUrl, parseWorkflowArtifactList } from './workflowArtifacts';

export interface UpdateTaskInput {
  status?: string | null;
  /** Only to claim ("assigned" with no one or oneself); anything else is refused (T4, T5). */
  assignee?: string | null;
  prUrl?: string | null;
  workflowArtifacts?: unknown;
}

export const PERSON_ASSIGNS_BY_HANDOFF = 'To assign a task, hand it off to an agent.';

const nameKey = (s: string) => s.trim().replace(/^@/, '').trim().toLowerCase();

function namesOf(label: string | null, agentKey: string | null, displayName?: string): string[] {
  const names = [label, agentKey, displayName, label?.split(' | ')[0]];
  return names.filter((n): n is string => !!n && !!n.trim()).map(nameKey);
}

/** T4/T5: update_task may name an assignee only to claim, or to repeat the current one. */
function checkAssignee(task: TaskRow, actor: Actor, assignee: string | null | undefined, claiming: boolean): void {
  if (assignee === undefined) return;
  const wanted = nameKey(assignee ?? '');
  const self = actor.kind === 'agent' ? namesOf(actor.label, actor.agentKey, actor.displayName) : [];
  const current = namesOf(task.assignee, task.assignee_agent_key);
  if (!wanted) {
    if (claiming || task.assignee === null) return;
    throw errors.T4();
  }
  if (self.includes(wanted)) {
    if (claiming || (actor.kind === 'agent' && task.assignee_agent_key === actor.agentKey)) return;
    throw errors.T4();
  }
  if (!claiming && current.includes(wanted)) return;
  throw errors.T5();
}

/** The requested status if it is a transition; a missing, blank or current status is not. */
function requestedStatus(task: TaskRow, status: string | null | undefined): string | null {
  const value = status?.trim();
  return value && value !== task.status ? value : null;
}

interface Edits {
  prUrl?: string | null;
  artifactsJson?: string;
}

/** The edits that actually change something (so repeating a value needs no permission). */
function changedEdits(task: TaskRow, input: UpdateTaskInput): Edits {
  const edits: Edits = {};
  if (input.prUrl !== undefined) {
    const prUrl = checkPrUrl(input.prUrl?.trim() ? input.prUrl.trim() : null);
    if (prUrl !== task.pr_url) edits.prUrl = prUrl;
  }
  if (input.workflowArtifacts !== undefined) {
    const json = JSON.stringify(parseWorkflowArtifactList(input.workflowArtifacts));
    if (json !== task.workflow_artifacts_json) edits.artifactsJson = json;
  }
  return edits;
}

async function applyEdits(tx: Tx, task: TaskRow, edits: Edits): Promise<void> {
  if (edits.prUrl !== undefined) await setTaskPrUrl(tx, task.room_id, task.number, edits.prUrl);
  if (edits.artifactsJson !== undefined) await setTaskArtifacts(tx, task.room_id, task.number, edits.artifactsJson);
}

const hasEdits = (e: Edits) => e.prUrl !== undefined || e.artifactsJson !== undefined;

export async function updateTask(tx: Tx, roomId: string, number: number, actor: Actor, input: UpdateTaskInput): Promise<{ task: TaskObject }> {
  const task = await requireTask(tx, roomId, number);
  const to = requestedStatus(task, input.status);
  const claiming = to === 'assigned';
  checkAssignee(task, actor, input.assignee, claiming);
  const edits = changedEdits(task, input);

  if (claiming) {
    if (actor.kind !== 'agent') {
      assertTransition(task.status, 'assigned');
      throw appErrors.invalidInput(PERSON_ASSIGNS_BY_HANDOFF);
    }
    // A claim's retry is not reachable here: "assigned" again is the current status.
    await checkClaim(tx, task, actor);
  } else if (to !== null) {
    assertTransition(task.status, to);
    if (actor.kind === 'agent') await checkAgentMove(tx, task, actor, to);
  }
  if (hasEdits(edits) && !claiming && actor.kind === 'agent') await checkAgentEdit(tx, task, actor);

  const before = await taskParties(tx, task);
  let text: string | null = null;
  if (claiming && actor.kind === 'agent') {
    await applyClaim(tx, task, actor);
    await claimedPresence(tx, actor, number);
    text = taskEventText.claimed(actor, number);
  } else if (to !== null) {
    await applyStatusChange(tx, task, to as TaskStatus, actor);
    await setActorPresence(tx, actor, ...presenceForStatus(to as TaskStatus, number));
    text = taskEventText.moved(number, task.status, to, actor);
  }
  await applyEdits(tx, task, edits);
  // A claim or move concerns the task's agents; an edit alone wakes no one.
  const concerns = text ? await changeConcerns(tx, before, task) : [];
  if (!text && hasEdits(edits)) text = taskEventText.updated(actor, number);
  if (text) await announceTaskChange(tx, roomId, number, text, actor, concerns);
  return { task: await toTaskObject(tx, (await getTaskRow(tx, roomId, number))!) };
}

/** The holder hands its work in for review (→ in_review), optionally with the PR link. */
export async function completeTask(
  tx: Tx, roomId: string, number: number, actor: Actor, input: { prUrl?: string | null } = {},
): Promise<{ task: TaskObject }> {
  const task = await requireTask(tx, roomId, number);
  const moving = task.status !== 'in_review';
  if (moving) assertTransition(task.status, 'in_review');
  if (actor.kind === 'agent' && !holds(await activeWorkLease(tx, task), actor)) throw errors.T9();
  const edits = changedEdits(task, { prUrl: input.prUrl });
  const before = await taskParties(tx, task);

  if (moving) await applyStatusChange(tx, task, 'in_review', actor);
  await applyEdits(tx, task, edits);
  await setActorPresence(tx, actor, ...presenceForStatus('in_review', number));
  const text = moving ? taskEventText.moved(number, task.status, 'in_review', actor)
    : hasEdits(edits) ? taskEventText.updated(actor, number) : null;
  if (text) await announceTaskChange(tx, roomId, number, text, actor, moving ? await changeConcerns(tx, before, task) : []);
  return { task: await toTaskObject(tx, (await getTaskRow(tx, roomId, number))!) };
}
