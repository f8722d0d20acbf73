// One managed agent: what it is, what it is doing, what it used of its budget, and the
// person's controls (Run now, Pause or Resume, Stop, Remove) with its activity log, and
// where it works (its own branch, or the folder itself and why) with its Changes.
import { useState } from 'react';
import type { ManagedAgent } from '../../../../../shared/types';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';
import { Avatar } from '../../../components/Avatar';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { IdeBadge } from '../../../components/IdeBadge';
import { Time } from '../../../components/Time';
import { ActivityLog } from './ActivityLog';
import { ChangesView } from './ChangesView';
import { STATE_WORDS, usageText, waitingText } from './managedWords';

type Action = 'agents.runNow' | 'agents.pause' | 'agents.resume' | 'agents.stop';

export function ManagedAgentCard({ agent, onChanged }: { agent: ManagedAgent; onChanged: () => void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [showChanges, setShowChanges] = useState(false);
  /** Remove was refused: its worktree holds work; this says what. */
  const [unsaved, setUnsaved] = useState<string | null>(null);
  const act = async (method: Action) => {
    setBusy(true);
    setProblem(null);
    try {
      await api.call(method, { agentId: agent.agentId });
      onChanged();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  // Resume is the way back from a pause, a budget hold, a CLI that could not run, and (at once) a usage limit.
  const paused = agent.desiredState === 'paused' || agent.state === 'held' || agent.state === 'cant_run' || agent.state === 'limited';
  const waiting = waitingText(agent);
  const logId = `activity-${agent.agentId}`;
  const changesId = `changes-${agent.agentId}`;
  const { workspace } = agent;
  return (
    <li className={`managed-card managed-${agent.state}`}>
      <div className="managed-card-head">
        <Avatar name={agent.name} size={36} />
        <div className="agent-main">
          <div className="agent-name-line">
            <strong className="agent-name">{agent.name}</strong>
            <IdeBadge ide={agent.providerName} />
            <span className={`pill managed-state managed-state-${agent.state}`}>{STATE_WORDS[agent.state]}</span>
          </div>
          <div className="managed-where muted">
            {agent.roomName} · <span className="managed-folder">{agent.folder}</span>
          </div>
          <div className="managed-workspace muted">
            {workspace.kind === 'worktree' ? (
              <>
                Works on its own branch <code>{workspace.branch}</code> (from {workspace.base}) in <span className="managed-folder">{workspace.path}</span>
              </>
            ) : (
              workspace.note
            )}
          </div>
        </div>
      </div>
      {agent.cantRun && (
        <div className="managed-held managed-cant-run" role="status">
          <p>
            <strong>Can't run: {agent.cantRun.reason}.</strong>
          </p>
          <p className="managed-fix">{agent.cantRun.fix}</p>
        </div>
      )}
      {agent.heldReason && (
        <p className="managed-held" role="status">
          {agent.heldReason} Resume gives it a fresh budget.
        </p>
      )}
      {agent.resumesAt && (
        <p className="managed-held" role="status">
          {agent.providerName}'s usage limit is reached: it resumes by itself <Time iso={agent.resumesAt} until />. Resume tries now.
        </p>
      )}
      {agent.retryAt && (
        <p className="managed-waiting" role="status">
          Rate limited: it tries its last turn again <Time iso={agent.retryAt} until />.
        </p>
      )}
      {waiting && paused && <p className="managed-waiting">{waiting}: its next turn gets them.</p>}
      <p className="managed-usage">{usageText(agent)}</p>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="managed-actions">
        <button type="button" className="btn btn-small" disabled={busy || agent.state === 'held' || agent.state === 'cant_run' || agent.state === 'limited'} onClick={() => act('agents.runNow')}>
          Run now
        </button>
        {paused ? (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => act('agents.resume')}>
            Resume
          </button>
        ) : (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => act('agents.pause')}>
            Pause
          </button>
        )}
        {agent.state === 'running' && (
          <button type="button" className="btn btn-small btn-danger" disabled={busy} onClick={() => act('agents.stop')}>
            Stop
          </button>
        )}
        <button type="button" className="btn btn-small btn-ghost" aria-expanded={showLog} aria-controls={logId} onClick={() => setShowLog(!showLog)}>
          {showLog ? 'Hide activity' : 'Activity'}
        </button>
        {workspace.kind === 'worktree' && (
          <button type="button" className="btn btn-small btn-ghost" aria-expanded={showChanges} aria-controls={changesId} onClick={() => setShowChanges(!showChanges)}>
            {showChanges ? 'Hide changes' : 'Changes'}
          </button>
        )}
        <button type="button" className="btn btn-small btn-ghost managed-remove" disabled={busy} onClick={() => setRemoving(true)}>
          Remove…
        </button>
      </div>
      {showLog && <ActivityLog id={logId} agentId={agent.agentId} />}
      {showChanges && <ChangesView id={changesId} agent={agent} />}
      {removing && (
        <ConfirmDialog
          title={`Remove ${agent.name}?`}
          confirmLabel="Remove"
          danger
          onConfirm={async () => {
            try {
              await api.call('agents.remove', { agentId: agent.agentId });
            } catch (error) {
              // Its worktree holds work that is not merged: ask again, saying what would go.
              if (workspace.kind !== 'worktree') throw error;
              setUnsaved(errorMessage(error));
              return;
            }
            onChanged();
          }}
          onClose={() => setRemoving(false)}
        >
          A running turn stops, {agent.name} leaves {agent.roomName} (its tasks there go back to Accepted), and its settings and activity are forgotten.{' '}
          {workspace.kind === 'worktree' ? `Its worktree and branch ${workspace.branch} go too when everything on them is merged.` : 'Its folder is not touched.'}
        </ConfirmDialog>
      )}
      {unsaved && (
        <ConfirmDialog
          title={`Throw away ${agent.name}'s unmerged work?`}
          confirmLabel="Remove and discard"
          danger
          onConfirm={async () => {
            await api.call('agents.remove', { agentId: agent.agentId, discardWork: true });
            onChanged();
          }}
          onClose={() => setUnsaved(null)}
        >
          {unsaved}
        </ConfirmDialog>
      )}
    </li>
  );
}
