// What a managed agent changed on its own branch against its base: the files with lines
// added and removed, the diff (react-diff-view renders it), and the person's choices: copy
// the branch name, open its folder, Merge into <base> (a refusal names the conflicting
// files; nothing is forced) and Discard (after a confirm). A branch that changes
// .gitattributes says so first: they decide how git shows, filters and merges its files.
import { useMemo, useState } from 'react';
import { Diff, Hunk, parseDiff } from 'react-diff-view';
import 'react-diff-view/style/index.css';
import type { ManagedAgent } from '../../../../../shared/types';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';
import { useQuery } from '../../../api/useQuery';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { CopyButton } from '../../../components/CopyButton';
import { ErrorState, Loading } from '../../../components/StateViews';

export function ChangesView({ id, agent }: { id: string; agent: ManagedAgent }) {
  const api = useApi();
  const changes = useQuery('agents.changes', { agentId: agent.agentId, diff: true }, (e) => (e.type === 'agent.activity' || e.type === 'agent.changed') && e.agentId === agent.agentId);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const files = useMemo(() => (changes.data?.diff ? parseDiff(changes.data.diff, { nearbySequences: 'zip' }) : []), [changes.data?.diff]);
  const { branch, base } = agent.workspace;
  if (changes.status === 'loading') return <Loading label="Loading changes…" />;
  if (changes.status === 'error' && !changes.data) return <ErrorState message={changes.error} onRetry={changes.reload} />;
  const c = changes.data!;

  const merge = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await api.call('agents.merge', { agentId: agent.agentId });
      setOutcome(result.merged ? { ok: true, text: `Merged ${branch} into ${base}.` } : { ok: false, text: `Not merged: ${result.reason ?? ''}` });
      changes.reload();
    } catch (error) {
      setOutcome({ ok: false, text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section id={id} className="changes" aria-label={`Changes of ${agent.name}`}>
      <div className="changes-head">
        <p>
          <strong>{c.files.length === 0 ? 'No changes' : `${c.files.length} file${c.files.length === 1 ? '' : 's'} changed`}</strong>{' '}
          <span className="changes-added">+{c.added}</span> <span className="changes-removed">−{c.removed}</span> on <code>{branch}</code> against{' '}
          <code>{base}</code>
          {c.uncommittedFiles > 0 ? ` · ${c.uncommittedFiles} uncommitted` : ''}
          {c.commits > 0 ? ` · ${c.commits} commit${c.commits === 1 ? '' : 's'}` : ''}
        </p>
        <div className="managed-actions">
          <CopyButton text={branch ?? ''} label="Copy branch name" />
          <button type="button" className="btn btn-small btn-ghost" onClick={() => void api.call('agents.openFolder', { agentId: agent.agentId })}>
            Open folder
          </button>
          <button type="button" className="btn btn-small" disabled={busy || c.files.length === 0} onClick={() => void merge()}>
            Merge into {base}
          </button>
          <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => setDiscarding(true)}>
            Discard…
          </button>
        </div>
      </div>
      {c.attributeFiles.length > 0 && (
        <p className="notice notice-warn changes-attributes" role="note" aria-label="Attribute files changed">
          This branch changes {c.attributeFiles.map((path, i) => <span key={path}>{i > 0 && ', '}<code>{path}</code></span>)}: these decide how git shows,
          filters and merges files, in your repository too once merged. Read them before you merge.
        </p>
      )}
      {c.shownAsText.length > 0 && (
        <p className="muted">
          Shown as text although .gitattributes would show {c.shownAsText.length === 1 ? 'it' : 'them'} as binary:{' '}
          {c.shownAsText.map((path, i) => <span key={path}>{i > 0 && ', '}<code>{path}</code></span>)}.
        </p>
      )}
      {outcome && (
        <p className={outcome.ok ? 'changes-merged' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </p>
      )}
      {files.map((file) => (
        <div key={`${file.oldPath}→${file.newPath}`} className="changes-file">
          <h4 className="changes-file-name">{file.type === 'delete' ? file.oldPath : file.newPath}</h4>
          <Diff viewType="unified" diffType={file.type} hunks={file.hunks}>
            {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
          </Diff>
        </div>
      ))}
      {c.diffCut && <p className="muted">The diff is too long to show whole; open the folder to see the rest.</p>}
      {discarding && (
        <ConfirmDialog
          title={`Discard ${agent.name}'s changes?`}
          confirmLabel="Discard"
          danger
          onConfirm={async () => {
            await api.call('agents.discard', { agentId: agent.agentId });
            changes.reload();
          }}
          onClose={() => setDiscarding(false)}
        >
          Its worktree and the branch {branch} are deleted with everything on them (committed or not). Its next turn starts again from {base}.
        </ConfirmDialog>
      )}
    </section>
  );
}
