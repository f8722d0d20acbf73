// Room artifacts (mcp-tools.md §6): PRs, issues, branches and the like that agents
// publish for a room. One artifact per provider + kind + identity (the first present of
// url, id, number, ref); publishing it again updates it and adds task links.
import { mapInOrder } from '../inOrder';
import type { Queryable, Tx } from '../../store/port';
import {
  addArtifactTaskLinks, findArtifactRow, getArtifactRow, insertArtifactRow, listArtifactRows,
  listArtifactTaskNumbers, touchArtifactRow, updateArtifactJson, type ArtifactRow,
} from '../../store/artifactQueries';
import { allocateNumber } from '../../store/rooms';
import { getTaskRow } from '../../store/taskQueries';
import { actorShortName, type Actor } from '../actor';
import { appErrors, errors } from '../errors';
import { formatId, taskId } from '../ids';
import { postSystemEvent } from '../systemEvents';
import { parseTaskId } from './taskEffects';
import { parseWorkflowArtifact, readStoredArtifact, type WorkflowArtifact } from './workflowArtifacts';

export const MAX_LINKED_TASKS = 32;
export const DEFAULT_ARTIFACT_LIMIT = 100;
export const MAX_ARTIFACT_LIMIT = 250;

export interface RoomArtifactObject {
  artifact_id: string;
  artifact: WorkflowArtifact;
  task_ids: string[];
  published_by: string;
  created_at: string;
  updated_at: string;
}

export interface PublishInput {
  artifact: unknown;
  taskId?: string | null;
  linkedTaskIds?: readonly string[] | null;
}

const IDENTITY_FIELDS = ['url', 'id', 'number', 'ref'] as const;
// Republishing updates only these.
const UPDATABLE_FIELDS = ['title', 'state', 'ref'] as const;

/** `url:<…>`, `id:<…>`, `number:<…>` or `ref:<…>`, from the first present field (T18 if none). */
function identityOf(a: WorkflowArtifact): string {
  for (const field of IDENTITY_FIELDS) {
    const value = a[field];
    if (value !== null && String(value).trim() !== '') return `${field}:${value}`;
  }
  throw errors.T18();
}

async function toArtifactObject(q: Queryable, row: ArtifactRow): Promise<RoomArtifactObject> {
  return {
    artifact_id: formatId('artifact', row.number),
    artifact: readStoredArtifact(row.artifact_json),
    task_ids: (await listArtifactTaskNumbers(q, row.room_id, row.number)).map(taskId),
    published_by: row.published_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The tasks to link: `taskId` plus `linkedTaskIds` (≤ 32); each must exist (T3). */
async function linkedTasks(q: Queryable, roomId: string, input: PublishInput): Promise<number[]> {
  const ids = input.linkedTaskIds ?? [];
  if (ids.length > MAX_LINKED_TASKS) throw appErrors.invalidInput(`linked_task_ids must not list more than ${MAX_LINKED_TASKS} tasks.`);
  const all = [...(input.taskId ? [input.taskId] : []), ...ids].map(parseTaskId);
  for (const n of all) if (!(await getTaskRow(q, roomId, n))) throw errors.T3();
  return [...new Set(all)];
}

function describe(a: WorkflowArtifact): string {
  return a.title ?? a.url ?? a.id ?? (a.number !== null ? `#${a.number}` : null) ?? a.ref ?? '';
}

export async function publishRoomArtifact(
  tx: Tx, roomId: string, actor: Actor, input: PublishInput,
): Promise<{ room_id: string; artifact: RoomArtifactObject; created: boolean }> {
  const artifact = parseWorkflowArtifact(input.artifact);
  const identity = identityOf(artifact);
  const tasks = await linkedTasks(tx, roomId, input);
  const given = (input.artifact ?? {}) as Record<string, unknown>;
  const existing = await findArtifactRow(tx, roomId, artifact.provider, artifact.kind, identity);

  let number: number;
  let verb: 'published' | 'updated' | null = null;
  if (!existing) {
    number = await allocateNumber(tx, roomId, 'next_artifact_number');
    await insertArtifactRow(tx, {
      room_id: roomId, number, provider: artifact.provider, kind: artifact.kind, identity_value: identity,
      artifact_json: JSON.stringify(artifact), published_by: actor.label,
    });
    await addArtifactTaskLinks(tx, roomId, number, tasks);
    verb = 'published';
  } else {
    number = existing.number;
    const stored = readStoredArtifact(existing.artifact_json);
    const next = { ...stored };
    for (const field of UPDATABLE_FIELDS) if (field in given) next[field] = artifact[field];
    const json = JSON.stringify(next);
    const changed = json !== existing.artifact_json;
    if (changed) await updateArtifactJson(tx, roomId, number, json);
    const added = await addArtifactTaskLinks(tx, roomId, number, tasks);
    if (added > 0 && !changed) await touchArtifactRow(tx, roomId, number);
    if (changed || added > 0) verb = 'updated';
  }

  const row = (await getArtifactRow(tx, roomId, number))!;
  const result = await toArtifactObject(tx, row);
  if (verb) {
    const shown = result.artifact;
    const text = `${actorShortName(actor)} ${verb} ${result.artifact_id} (${shown.provider} ${shown.kind}): ${describe(shown)}`;
    await postSystemEvent(tx, roomId, text, actor);
    // Linked tasks show their artifacts, so their cards and drawers refresh.
    for (const n of await listArtifactTaskNumbers(tx, roomId, number)) tx.emit({ type: 'task.changed', roomId, number: n });
  }
  return { room_id: roomId, artifact: result, created: !existing };
}

export async function listRoomArtifacts(
  q: Queryable, roomId: string, options: { taskId?: string | null; limit?: number | null } = {},
): Promise<{ room_id: string; artifacts: RoomArtifactObject[] }> {
  const limit = options.limit ?? DEFAULT_ARTIFACT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ARTIFACT_LIMIT) {
    throw appErrors.invalidInput(`limit must be an integer from 1 to ${MAX_ARTIFACT_LIMIT}.`);
  }
  let taskNumber: number | undefined;
  if (options.taskId) {
    taskNumber = parseTaskId(options.taskId);
    if (!(await getTaskRow(q, roomId, taskNumber))) throw errors.T3();
  }
  const rows = await listArtifactRows(q, roomId, { taskNumber, limit });
  return { room_id: roomId, artifacts: await mapInOrder(rows, (row) => toArtifactObject(q, row)) };
}
