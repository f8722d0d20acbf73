// Workflow artifacts of a task (PRs, issues, branches): only an https: link is a link, and
// it leaves only through the safe rule. A link on this machine (http://localhost…) is shown
// as text to copy; anything else (javascript:, file:, data:, stored before the app refused
// them) is never shown at all.
import { isArtifactUrl, safeExternalUrl } from '../../../../shared/externalLinks';
import type { WorkflowArtifact } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { Icon } from '../../components/Icon';
import { openExternal } from '../../lib/openExternal';

const KIND_WORDS: Readonly<Record<WorkflowArtifact['kind'], string>> = {
  issue: 'Issue',
  branch: 'Branch',
  pull_request: 'Pull request',
  merge_request: 'Merge request',
  review: 'Review',
  check_run: 'Check',
  merge: 'Merge',
};

export function TaskArtifacts({ artifacts }: { artifacts: WorkflowArtifact[] }) {
  const api = useApi();
  if (artifacts.length === 0) return <p className="muted">No links yet.</p>;
  return (
    <ul className="artifacts">
      {artifacts.map((artifact, index) => {
        const shownUrl = artifact.url && isArtifactUrl(artifact.url) ? artifact.url : null;
        const href = shownUrl && safeExternalUrl(shownUrl);
        const name = artifact.title ?? artifact.ref ?? (artifact.number != null ? `#${artifact.number}` : artifact.id ?? shownUrl ?? '');
        return (
          <li key={index}>
            <span className="badge">{KIND_WORDS[artifact.kind]}</span>
            {href ? (
              <a href={href} onClick={(event) => { event.preventDefault(); void openExternal(api, href); }}>
                {name} <Icon name="external" size={12} />
              </a>
            ) : (
              <span>{name}</span>
            )}
            {!href && shownUrl && shownUrl !== name && <code>{shownUrl}</code>}
            {artifact.state && <span className="muted">{artifact.state}</span>}
          </li>
        );
      })}
    </ul>
  );
}
