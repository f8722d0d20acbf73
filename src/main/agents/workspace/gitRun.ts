// git for an agent's worktree, through the app's one git runner (domain/git.ts): a longer
// time limit and a larger output than the app's quick context reads, since a diff, a merge or
// `worktree add` of a large repository takes longer and says more.
import { runGit, type GitResult } from '../../domain/git';

const WORKTREE_GIT_TIMEOUT_MS = 30_000;
const WORKTREE_GIT_MAX_BUFFER = 64 * 1024 * 1024;

export type { GitResult };

export function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<GitResult> {
  return runGit(cwd, args, { env, timeoutMs: WORKTREE_GIT_TIMEOUT_MS, maxBuffer: WORKTREE_GIT_MAX_BUFFER });
}

/** Runs git and returns its trimmed stdout; throws with git's own words when it fails. */
export async function gitOut(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await git(cwd, args, env);
  if (!result.ok) throw new Error(result.stderr || `git ${args[0]} failed`);
  return result.stdout.trim();
}

/** Who the app's own commits are by (the person's git identity is not needed or touched). */
export const APP_IDENTITY = ['-c', 'user.name=LetAgents', '-c', 'user.email=letagents@localhost'] as const;
