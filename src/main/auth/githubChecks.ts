// One check status for a pull request's head commit, from GitHub's two systems: commit
// statuses (older CI) and check runs (GitHub Actions and apps).

export type CheckStatus = 'success' | 'failure' | 'pending' | 'none' | 'unknown';

type Verdict = 'success' | 'failure' | 'pending';

function statusVerdicts(body: unknown): Verdict[] {
  const b = body as { total_count?: number; state?: string } | null;
  if (!b || !b.total_count) return [];
  if (b.state === 'success') return ['success'];
  if (b.state === 'failure' || b.state === 'error') return ['failure'];
  return ['pending'];
}

function checkRunVerdicts(body: unknown): Verdict[] {
  const runs = (body as { check_runs?: Array<{ status?: string; conclusion?: string | null }> } | null)?.check_runs ?? [];
  return runs.map((run): Verdict => {
    if (run.status !== 'completed') return 'pending';
    if (run.conclusion === 'success' || run.conclusion === 'neutral' || run.conclusion === 'skipped') return 'success';
    if (run.conclusion === 'stale') return 'pending';
    return 'failure';
  });
}

/** Any failure wins, then anything still running, then success; no checks at all is "none". */
export function combineChecks(statusBody: unknown, checkRunsBody: unknown): CheckStatus {
  const verdicts = [...statusVerdicts(statusBody), ...checkRunVerdicts(checkRunsBody)];
  if (verdicts.includes('failure')) return 'failure';
  if (verdicts.includes('pending')) return 'pending';
  return verdicts.length > 0 ? 'success' : 'none';
}
