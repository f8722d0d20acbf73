// The next steps after a refused merge (issue 35). "Update from main" merges the base into the
// agent's branch, in its worktree, when that merges cleanly; otherwise it is refused with the
// conflicting files named, and nothing is forced. "Ask <agent> to redo it on top of main" starts
// that merge and leaves its conflicts in the worktree, for the agent's next turn to resolve
// (its commit then concludes the merge). Both commit what the agent left uncommitted first, as
// Merge does, and both run as the person (personIdentity).
import { commitLeftovers, mergeProbe, type Worktree } from './changes';
import { git, gitOut, type GitPlace } from './gitRun';

export type UpdateOutcome =
  | { updated: true; commit: string | null; reason: null }
  /** `started`: the merge waits in the worktree, with its conflicts, for the agent. */
  | { updated: false; conflicts: string[]; reason: string; started: boolean };

/**
 * git `-c` arguments naming who merges: none where the person's own git identity is set (the
 * repository's or their global config, as their own git reads it), else their name in the app.
 */
export async function personIdentity(repo: GitPlace, personName: string): Promise<string[]> {
  const set = async (key: string) => (await git(repo, ['config', '--get', key])).stdout.trim() !== '';
  if ((await set('user.name')) && (await set('user.email'))) return [];
  return ['-c', `user.name=${personName}`, '-c', 'user.email=letagents@localhost'];
}

/** Merges `w.base` into the agent's branch in its worktree; `leaveConflicts`: a conflicting merge is started and left for the agent. */
export async function updateFromBase(w: Worktree, agentName: string, mergedBy: readonly string[], leaveConflicts: boolean): Promise<UpdateOutcome> {
  if ((await git(w, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD'])).ok) {
    return { updated: false, conflicts: [], reason: `A merge of ${w.base} already waits in its worktree for ${agentName} to finish.`, started: false };
  }
  await commitLeftovers(w, agentName);
  if ((await git(w.repo, ['merge-base', '--is-ancestor', `refs/heads/${w.base}`, `refs/heads/${w.branch}`])).ok) {
    return { updated: true, commit: null, reason: null };
  }
  const probe = await mergeProbe(w, w.branch, w.base);
  const message = `Update ${w.branch} (${agentName}) from ${w.base}`;
  if (probe.clean) {
    const merged = await git(w, [...mergedBy, 'merge', '--no-ff', '--no-edit', '--no-gpg-sign', '-m', message, w.base]);
    if (!merged.ok) {
      await git(w, ['merge', '--abort']);
      return { updated: false, conflicts: [], reason: `git refused to merge ${w.base} into ${w.branch}: ${merged.stderr || merged.stdout.trim()}`, started: false };
    }
    return { updated: true, commit: await gitOut(w, ['rev-parse', 'HEAD']), reason: null };
  }
  if (probe.conflicts.length === 0) return { updated: false, conflicts: [], reason: probe.reason, started: false };
  const files = probe.conflicts.join(', ');
  if (!leaveConflicts) {
    return { updated: false, conflicts: probe.conflicts, reason: `${w.base} does not merge cleanly into ${w.branch}: ${files} changed on both. Nothing was changed.`, started: false };
  }
  // Its own worktree: the conflicts stay there, marked in the files, for the agent to resolve.
  await git(w, [...mergedBy, 'merge', '--no-ff', '--no-commit', '--no-gpg-sign', w.base]);
  const waiting = (await git(w, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD'])).ok;
  return { updated: false, conflicts: probe.conflicts, reason: `${w.base} merged into ${w.branch} with conflicts in ${files}, left for ${agentName} to resolve.`, started: waiting };
}
