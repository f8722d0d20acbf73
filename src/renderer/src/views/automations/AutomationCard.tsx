// One automation: what starts it and who does the work, its next run, its last run with the
// outcome, tokens and a link to the reply, missed runs, why it does nothing (a notice), and the
// person's controls: Run now, Pause or Resume, Edit, Delete, and its runs.
import { useState } from 'react';
import type { Automation } from '../../../../shared/model/automations';
import { missedText } from '../../../../shared/automationWords';
import { useApi } from '../../api/ApiContext';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatAt } from '../../lib/time';
import { AutomationDialog } from './AutomationDialog';
import { AutomationFacts } from './AutomationFacts';
import { RunHistory } from './RunHistory';

type Action = 'automations.runNow' | 'automations.pause' | 'automations.resume';

export function AutomationCard({ automation: a, onChanged }: { automation: Automation; onChanged: () => void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [showRuns, setShowRuns] = useState(false);
  const act = async (method: Action) => {
    setBusy(true);
    setProblem(null);
    try {
      await api.call(method, { automationId: a.automationId });
      onChanged();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const runsId = `runs-${a.automationId}`;
  const who = a.target.kind === 'agent' ? `${a.target.name} does it` : `mentions @${a.target.handle}`;
  return (
    <li className={`managed-card automation-card automation-${a.state}`}>
      <div className="automation-title-line">
        <strong className="agent-name">{a.name}</strong>
        <span className={`pill automation-state-${a.state}`}>{a.state === 'paused' ? 'Paused' : a.running ? 'Running' : 'Active'}</span>
      </div>
      <p className="automation-what">
        {a.triggerText} · {who} · <span className="muted">{a.roomName}</span>
      </p>
      {a.notice && (
        <p className="managed-held" role="status">
          {a.notice}
        </p>
      )}
      {a.missed && (
        <p className="managed-held" role="status">
          {missedText(a.missed.count, formatAt(a.missed.lastAt))}. {a.trigger.type === 'schedule' && a.trigger.catchUp === 'once' ? 'It ran once to catch up.' : 'Missed runs are skipped.'}
        </p>
      )}
      <AutomationFacts automation={a} />
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <div className="managed-actions">
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => act('automations.runNow')}>
          Run now
        </button>
        {a.state === 'paused' ? (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => act('automations.resume')}>
            Resume
          </button>
        ) : (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => act('automations.pause')}>
            Pause
          </button>
        )}
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => setEditing(true)}>
          Edit…
        </button>
        <button type="button" className="btn btn-small btn-ghost" aria-expanded={showRuns} aria-controls={runsId} onClick={() => setShowRuns(!showRuns)}>
          {showRuns ? 'Hide runs' : 'Runs'}
        </button>
        <button type="button" className="btn btn-small btn-ghost managed-remove" disabled={busy} onClick={() => setRemoving(true)}>
          Delete…
        </button>
      </div>
      {showRuns && <RunHistory id={runsId} automation={a} />}
      {editing && <AutomationDialog automation={a} onClose={() => setEditing(false)} onSaved={onChanged} />}
      {removing && (
        <ConfirmDialog
          title={`Delete "${a.name}"?`}
          confirmLabel="Delete"
          danger
          onConfirm={async () => {
            await api.call('automations.remove', { automationId: a.automationId });
            onChanged();
          }}
          onClose={() => setRemoving(false)}
        >
          It starts no more runs, and its run history goes. {a.running ? 'The run going now ends; a turn its agent already started finishes.' : ''} What its runs posted stays in the room.
        </ConfirmDialog>
      )}
    </li>
  );
}
