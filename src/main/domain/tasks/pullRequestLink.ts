// The pull request a task links to: its pr_url, else the newest pull_request artifact with a URL.
import type { TaskObject } from './taskObject';

export function pullRequestUrlOf(task: Pick<TaskObject, 'pr_url' | 'workflow_artifacts'>): string | null {
  if (task.pr_url) return task.pr_url;
  const artifact = [...task.workflow_artifacts].reverse().find((a) => a.kind === 'pull_request' && a.url);
  return artifact?.url ?? null;
}
