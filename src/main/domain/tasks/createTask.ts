// Creating a task: an agent's task starts proposed, a person's accepted unless the person
// chooses to propose it (data-model.md §4.3). The title and description are checked
// before anything is written, so bad input uses up no task or message number.
import type { Tx } from '../../store/port';
import { allocateNumber } from '../../store/rooms';
import { getTaskRow, insertTaskEvent, insertTaskRow, messageExists } from '../../store/taskQueries';
import type { Actor } from '../actor';
import { appErrors, errors } from '../errors';
import { parseNumberedId } from '../ids';
import { taskEventText } from './eventTexts';
import { announceTaskChange } from './taskEffects';
import { toTaskObject, type TaskObject } from './taskObject';

export const MAX_TITLE_CHARS = 500;
export const MAX_DESCRIPTION_CHARS = 20_000;

export interface AddTaskInput {
  title: unknown;
  description?: string | null;
  /** `msg_N` of a message in this room the task came from. */
  sourceMessageId?: string | null;
  /** People only: create the task as `proposed` instead of `accepted`. */
  propose?: boolean;
}

const chars = (s: string) => [...s].length;

export async function addTask(tx: Tx, roomId: string, actor: Actor, input: AddTaskInput): Promise<TaskObject> {
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  if (!title) throw errors.T2();
  if (chars(title) > MAX_TITLE_CHARS) throw appErrors.invalidInput(`Task title must not exceed ${MAX_TITLE_CHARS} characters.`);
  const description = input.description ? input.description : null;
  if (description !== null && chars(description) > MAX_DESCRIPTION_CHARS) {
    throw appErrors.invalidInput(`Task description must not exceed ${MAX_DESCRIPTION_CHARS} characters.`);
  }
  let sourceNumber: number | null = null;
  if (input.sourceMessageId !== undefined && input.sourceMessageId !== null) {
    sourceNumber = parseNumberedId('msg', input.sourceMessageId);
    if (sourceNumber === null || !(await messageExists(tx, roomId, sourceNumber))) throw errors.M2();
  }

  const status = actor.kind === 'agent' || input.propose ? 'proposed' : 'accepted';
  const number = await allocateNumber(tx, roomId, 'next_task_number');
  await insertTaskRow(tx, {
    room_id: roomId, number, status, title, description, created_by: actor.label,
    created_by_agent_key: actor.kind === 'agent' ? actor.agentKey : null, source_message_number: sourceNumber,
  });
  await insertTaskEvent(tx, roomId, number, null, status, actor.label);
  await announceTaskChange(tx, roomId, number, taskEventText.created(actor, number, title, status), actor);
  return toTaskObject(tx, (await getTaskRow(tx, roomId, number))!);
}
