// The task object agents and the UI see (mcp-tools.md §6), and its board form, which
// keeps only the last 4 workflow artifacts and says how many there are.
import type { Queryable } from '../../store/port';
import { listActiveLeaseRows, type LeaseRow, type TaskRow } from '../../store/taskQueries';
import { msgId, taskId } from '../ids';
import { toLeaseObject, type LeaseObject } from './leases';
import type { TaskStatus } from './transitions';
import { BOARD_ARTIFACT_COUNT, readStoredArtifacts, type WorkflowArtifact } from './workflowArtifacts';

export interface TaskObject {
  id: string;
  title: string;
  description: string | null;
  status: TaskStatus;
  assignee: string | null;
  assignee_agent_key: string | null;
  assignee_agent_instance_id: null;
  assignee_agent_session_id: string | null;
  created_by: string;
  source_message_id: string | null;
  pr_url: string | null;
  workflow_artifacts: WorkflowArtifact[];
  /** Reserved; always empty in this version. */
  workflow_refs: never[];
  active_leases: LeaseObject[];
  created_at: string;
  updated_at: string;
}

export interface BoardTaskObject extends TaskObject {
  workflow_artifact_count: number;
  workflow_ref_count: number;
  workflow_artifacts_truncated: boolean;
  workflow_refs_truncated: boolean;
}

export async function toTaskObject(q: Queryable, row: TaskRow): Promise<TaskObject> {
  return taskObjectOf(row, await listActiveLeaseRows(q, row.room_id, row.number));
}

/** The task object of `row` with its active leases (work before review). */
function taskObjectOf(row: TaskRow, leases: readonly LeaseRow[]): TaskObject {
  return {
    id: taskId(row.number),
    title: row.title,
    description: row.description,
    status: row.status,
    assignee: row.assignee,
    assignee_agent_key: row.assignee_agent_key,
    assignee_agent_instance_id: null,
    assignee_agent_session_id: row.assignee_session_id,
    created_by: row.created_by,
    source_message_id: row.source_message_number === null ? null : msgId(row.source_message_number),
    pr_url: row.pr_url,
    workflow_artifacts: readStoredArtifacts(row.workflow_artifacts_json),
    workflow_refs: [],
    active_leases: leases.map(toLeaseObject),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The board form of `row`, given its active leases. */
export function toBoardTaskObject(row: TaskRow, leases: readonly LeaseRow[]): BoardTaskObject {
  const task = taskObjectOf(row, leases);
  const all = task.workflow_artifacts;
  return {
    ...task,
    workflow_artifacts: all.slice(-BOARD_ARTIFACT_COUNT),
    workflow_artifact_count: all.length,
    workflow_ref_count: 0,
    workflow_artifacts_truncated: all.length > BOARD_ARTIFACT_COUNT,
    workflow_refs_truncated: false,
  };
}
