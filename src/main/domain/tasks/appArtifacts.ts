// Artifacts the app itself adds to a task (a managed agent's branch when it takes the task):
// appended once beside what agents put there, never replacing it, and left out when the
// task already holds the most it may (agents' own artifacts win the room).
import type { Tx } from '../../store/port';
import { getTaskRow, setTaskArtifacts } from '../../store/taskQueries';
import { MAX_WORKFLOW_ARTIFACTS, parseWorkflowArtifact, readStoredArtifacts, type WorkflowArtifact, type WorkflowArtifactInput } from './workflowArtifacts';

const same = (a: WorkflowArtifact, b: WorkflowArtifact) => a.provider === b.provider && a.kind === b.kind && a.ref === b.ref && a.url === b.url && a.id === b.id && a.number === b.number;

/** Adds `artifact` to the task's list; false when it is already there, the list is full or the task is gone. */
export async function addTaskArtifact(tx: Tx, roomId: string, number: number, artifact: WorkflowArtifactInput): Promise<boolean> {
  const task = await getTaskRow(tx, roomId, number);
  if (!task) return false;
  const added = parseWorkflowArtifact(artifact);
  const list = readStoredArtifacts(task.workflow_artifacts_json);
  if (list.length >= MAX_WORKFLOW_ARTIFACTS || list.some((a) => same(a, added))) return false;
  await setTaskArtifacts(tx, roomId, number, JSON.stringify([...list, added]));
  tx.emit({ type: 'task.changed', roomId, number });
  return true;
}
