// A task card's pull request state. Reads never wait for GitHub: they show the last known
// state, and ask GitHub in the background; when a new answer lands, the UI is told the
// task changed so it refetches the card.
import type { PullRequestState } from '../../../shared/model/tasks';
import type { AppParts } from '../appParts';
import type { PullRequestState as KnownState } from '../../auth/githubData';
import type { TaskObject } from '../../domain/tasks';
import { pullRequestUrlOf } from '../../domain/tasks/pullRequestLink';
import { emitUiSignal } from '../uiSignals';

function toContract(url: string, known: KnownState | null): PullRequestState {
  if (!known || known.reason !== null) return { url, state: 'unknown', checks: null };
  const state = known.state === 'open' && known.draft ? 'draft' : known.state;
  const checks = known.checks === 'success' ? 'passing' : known.checks === 'failure' ? 'failing' : known.checks === 'pending' ? 'pending' : null;
  return { url, state, checks };
}

/** The card's PR state now, and a background refresh that signals the UI when it changes. */
export function pullRequestStateOf(app: AppParts, place: string, roomId: string, number: number, task: Pick<TaskObject, 'pr_url' | 'workflow_artifacts'>): PullRequestState | null {
  const url = pullRequestUrlOf(task);
  if (url === null) return null;
  const before = app.githubData.peekPullRequestState(url);
  const shown = toContract(url, before);
  // Only a change people would see is signalled; links GitHub never answers (not GitHub,
  // unreachable) stay "unknown", so they cause no signal and no refetch loop.
  void app.githubData
    .pullRequestState(url)
    .then(() => {
      const now = toContract(url, app.githubData.peekPullRequestState(url));
      if (now.state !== shown.state || now.checks !== shown.checks) emitUiSignal(app, { type: 'task.refreshed', place, roomId, number });
    })
    .catch(() => undefined);
  return shown;
}
