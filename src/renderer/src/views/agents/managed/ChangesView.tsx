// What a managed agent changed on its own branch since it branched from its base: the files
// with lines added and removed, the diff (react-diff-view renders it), and the person's
// choices: copy the branch name, open its folder, Merge into <base> (the main action; a refusal
// names the conflicting files, forces nothing and offers the next steps) and Discard (quieter,
// after a confirm, and only when there is something to discard). A branch that changes
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
import { RefusedMergeSteps } from './RefusedMergeSteps';

export function ChangesView({ id, agent }: { id: string; agent: ManagedAgent }) {
  const api = useApi();
  const changes = useQuery('agents.changes', { agentId: agent.agentId, diff: true }, (e) => (e.type === 'agent.activity' || e.type === 'agent.changed') && e.agentId === agent.agentId);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  /** The files of the last refused merge (issue 35): its next steps show until the next merge. */
  const [refused, setRefused] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const [folderShown, setFolderShown] = useState(false);
  const files = useMemo(() => (changes.data?.diff ? parseDiff(changes.data.diff, { nearbySequences: 'zip' }) : []), [changes.data?.diff]);
  const { branch, base } = agent.workspace;
  if (changes.status === 'loading') return <Loading label="Loading changes…" />;
  if (changes.status === 'error' && !changes.data) return <ErrorState message={changes.error} onRetry={changes.reload} />;
  const c = changes.data!;
  // Nothing on its branch since it left the base: nothing to merge or throw away.
  const nothing = c.files.length === 0;

  // A browser host cannot open a folder on the machine: say so and where it is (issue 35: nothing happened).
  const openFolder = async () => {
    try {
      const { opened } = await api.call('agents.openFolder', { agentId: agent.agentId });
      setFolderShown(!opened);
    } catch (error) {
      setOutcome({ ok: false, text: errorMessage(error) });
    }
  };

  const merge = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const result = await api.call('agents.merge', { agentId: agent.agentId });
      setOutcome(result.merged ? { ok: true, text: `Merged ${branch} into ${base}.` } : { ok: false, text: `Not merged: ${result.reason ?? ''}` });
      setRefused(result.merged || result.conflicts.length === 0 ? null : result.conflicts);
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
          <span className="changes-added">+{c.added}</span> <span className="changes-removed">−{c.removed}</span> on <code>{branch}</code> since it branched from{' '}
          <code>{base}</code>
          {c.uncommittedFiles > 0 ? ` · ${c.uncommittedFiles} uncommitted` : ''}
          {c.commits > 0 ? ` · ${c.commits} commit${c.commits === 1 ? '' : 's'}` : ''}
        </p>
        <div className="managed-actions">
          <CopyButton text={branch ?? ''} label="Copy branch name" />
          <button type="button" className="btn btn-small btn-ghost" onClick={() => void openFolder()}>
            Open folder
          </button>
          <button type="button" className="btn btn-small btn-primary" disabled={busy || nothing} onClick={() => void merge()}>
            Merge into {base}
          </button>
          {/* Quieter than Merge (issue 35): the step a person takes least, and undoable only by the agent doing it again. */}
          <button type="button" className="btn btn-small btn-ghost changes-discard" disabled={busy || nothing} onClick={() => setDiscarding(true)}>
            Discard…
          </button>
        </div>
      </div>
      {folderShown && (
        <p className="changes-folder" role="status">
          This window cannot open the folder for you (a browser tab cannot open folders). It is <code>{agent.workspace.path}</code>{' '}
          <CopyButton text={agent.workspace.path} label="Copy folder path" />
        </p>
      )}
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
      {refused && <RefusedMergeSteps agent={agent} conflicts={refused} onChanged={changes.reload} />}
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
