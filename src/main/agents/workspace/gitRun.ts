// git for an agent's worktree, through the app's one git runner (domain/git.ts): a longer
// time limit and a larger output than the app's quick context reads, since a diff, a merge or
// `worktree add` of a large repository takes longer and says more. Runs in the worktree use
// the git directory the app recorded when it made it, never the one its `.git` file names.
import { runGit, type GitResult } from '../../domain/git';

const WORKTREE_GIT_TIMEOUT_MS = 30_000;
const WORKTREE_GIT_MAX_BUFFER = 64 * 1024 * 1024;

export type { GitResult };

/** Where git runs: the person's repository (a folder, found as git finds it), or an agent's worktree and the git directory recorded for it. */
export type GitPlace = string | { readonly root: string; readonly gitDir: string };

export function git(place: GitPlace, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<GitResult> {
  const options = { env, timeoutMs: WORKTREE_GIT_TIMEOUT_MS, maxBuffer: WORKTREE_GIT_MAX_BUFFER };
  if (typeof place === 'string') return runGit(place, args, options);
  return runGit(place.root, args, { ...options, repository: { gitDir: place.gitDir, workTree: place.root } });
}

/** Runs git and returns its trimmed stdout; throws with git's own words when it fails. */
export async function gitOut(place: GitPlace, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await git(place, args, env);
  if (!result.ok) throw new Error(result.stderr || `git ${args[0]} failed`);
  return result.stdout.trim();
}

/** Who the app's own commits are by (the person's git identity is not needed or touched). */
export const APP_IDENTITY = ['-c', 'user.name=LetAgents', '-c', 'user.email=letagents@localhost'] as const;

/** A diff the app reads: no external diff program, no textconv, and no look inside a submodule's work tree (that would start git there). */
export const PLAIN_DIFF = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'] as const;
