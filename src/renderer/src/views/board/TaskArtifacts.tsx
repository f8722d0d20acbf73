// A task's links: its pull request (pr_url) and its workflow artifacts (PRs, issues,
// branches). Only an https: link is a link, and it leaves only through the safe rule. A link
// on this machine (http://localhost…) is shown as text to copy; anything else (javascript:,
// file:, data:, stored before the app refused them) is never shown at all.
import { isArtifactUrl, safeExternalUrl } from '../../../../shared/externalLinks';
import type { PullRequestState, WorkflowArtifact } from '../../../../shared/types';
import { ExternalLink } from '../../components/ExternalLink';

const KIND_WORDS: Readonly<Record<WorkflowArtifact['kind'], string>> = {
  issue: 'Issue',
  branch: 'Branch',
  pull_request: 'Pull request',
  merge_request: 'Merge request',
  review: 'Review',
  check_run: 'Check',
  merge: 'Merge',
};

/** "#12" for a GitHub-style pull request URL, else null. */
export function prNumberOf(url: string): string | null {
  const match = /\/pulls?\/(\d+)(?:[/?#]|$)/.exec(url);
  return match ? `#${match[1]}` : null;
}

/** The task's PR as an artifact, unless an artifact already links the same URL. */
function withPullRequest(artifacts: WorkflowArtifact[], pr: PullRequestState | null): WorkflowArtifact[] {
  if (!pr?.url || artifacts.some((a) => a.url === pr.url)) return artifacts;
  return [{ provider: 'github', kind: 'pull_request', url: pr.url, number: null, title: prNumberOf(pr.url), state: pr.state === 'unknown' ? null : pr.state }, ...artifacts];
}

export function TaskArtifacts({ artifacts, pr = null }: { artifacts: WorkflowArtifact[]; pr?: PullRequestState | null }) {
  const links = withPullRequest(artifacts, pr);
  if (links.length === 0) return <p className="muted">No links yet.</p>;
  return (
    <ul className="artifacts">
      {links.map((artifact, index) => {
        const shownUrl = artifact.url && isArtifactUrl(artifact.url) ? artifact.url : null;
        const href = shownUrl && safeExternalUrl(shownUrl);
        const name = artifact.title ?? artifact.ref ?? (artifact.number != null ? `#${artifact.number}` : artifact.id ?? shownUrl ?? '');
        return (
          <li key={index}>
            <span className="badge">{KIND_WORDS[artifact.kind]}</span>
            {href ? (
              <ExternalLink href={href} className="truncate" title={href}>
                {name}
              </ExternalLink>
            ) : (
              <span className="truncate">{name}</span>
            )}
            {!href && shownUrl && shownUrl !== name && <code>{shownUrl}</code>}
            {artifact.state && <span className="muted">{artifact.state}</span>}
          </li>
        );
      })}
    </ul>
  );
}
