// GitHub facts as the board shows them, to agents (get_board) and people: a task's pull
// request state and a repo room's visibility. Always the last known answer from the cache,
// never a wait on GitHub; a stale or missing answer is refreshed in the background.
import type { GitHubData } from './githubData';

export interface PrStatus {
  state: 'open' | 'merged' | 'closed' | 'unknown';
  draft: boolean | null;
  checks: 'success' | 'failure' | 'pending' | 'none' | 'unknown';
  checked_at: string | null;
}

export function prStatusOf(githubData: GitHubData | null, prUrl: string | null): PrStatus | null {
  if (!githubData || !prUrl) return null;
  const known = githubData.peekPullRequestState(prUrl);
  void githubData.pullRequestState(prUrl).catch(() => undefined);
  if (!known || known.reason === 'not_github') return null;
  return { state: known.state, draft: known.draft, checks: known.checks, checked_at: known.checked_at };
}


export type RepoVisibilityValue = 'public' | 'private' | 'internal' | 'unknown';

/** null for rooms that are not GitHub repo rooms. */
export function repoVisibilityOf(githubData: GitHubData | null, roomId: string): RepoVisibilityValue | null {
  if (!githubData || !roomId.startsWith('github.com/')) return null;
  void githubData.repoVisibility(roomId).catch(() => undefined);
  return githubData.peekRepoVisibility(roomId)?.visibility ?? 'unknown';
}
