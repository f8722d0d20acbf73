// The state of a task's pull request as agents see it on the board: the last known
// answer from the cache, never a wait on GitHub. A stale or missing answer is refreshed
// in the background, so the next get_board shows it.
import type { GitHubData } from '../auth/githubData';

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
