// Workflow artifacts of a task (PRs, issues, branches): links leave only through the safe rule.
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
        const name = artifact.title ?? artifact.ref ?? (artifact.number != null ? `#${artifact.number}` : artifact.id ?? artifact.url ?? '');
        return (
          <li key={index}>
            <span className="badge">{KIND_WORDS[artifact.kind]}</span>
            {artifact.url ? (
              <a href={artifact.url} onClick={(event) => { event.preventDefault(); void openExternal(api, artifact.url!); }}>
                {name} <Icon name="external" size={12} />
              </a>
            ) : (
              <span>{name}</span>
            )}
            {artifact.state && <span className="muted">{artifact.state}</span>}
          </li>
        );
      })}
    </ul>
  );
}
