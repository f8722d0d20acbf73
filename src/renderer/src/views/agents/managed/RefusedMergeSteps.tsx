// The next steps after a refused merge (issue 35): "Update from main" merges the base into the
// agent's branch in its worktree when that merges cleanly (the conflicting files named
// otherwise, nothing forced), and "Ask <agent> to redo it on top of main" leaves the conflicts
// in its worktree and asks it in its room, which starts its turn.
import { useState } from 'react';
import type { ManagedAgent } from '../../../../../shared/types';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';

export function RefusedMergeSteps({ agent, conflicts, onChanged }: { agent: ManagedAgent; conflicts: readonly string[]; onChanged: () => void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const { branch, base } = agent.workspace;
  const run = async (step: () => Promise<{ ok: boolean; text: string }>) => {
    setBusy(true);
    setSaid(null);
    try {
      setSaid(await step());
      onChanged();
    } catch (error) {
      setSaid({ ok: false, text: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  const update = () =>
    run(async () => {
      const result = await api.call('agents.update', { agentId: agent.agentId });
      if (!result.updated) return { ok: false, text: `Not updated: ${result.reason ?? ''}` };
      return { ok: true, text: result.commit ? `Updated ${branch} from ${base}: merge it now.` : `${branch} already has everything on ${base}.` };
    });
  const ask = () =>
    run(async () => {
      const result = await api.call('agents.askToRedo', { agentId: agent.agentId });
      return { ok: result.asked || result.conflicts.length === 0, text: result.message };
    });
  return (
    <div className="changes-next" role="group" aria-label="After the refused merge">
      <p>
        {base} has moved on since {branch} left it{conflicts.length > 0 ? `, and both changed ${conflicts.join(', ')}` : ''}. What {agent.name} left uncommitted is
        now committed on its branch.
      </p>
      <div className="managed-actions">
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void update()}>
          Update from {base}
        </button>
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void ask()}>
          Ask {agent.name} to redo it on top of {base}
        </button>
      </div>
      {said && (
        <p className={said.ok ? 'changes-merged' : 'form-error'} role={said.ok ? 'status' : 'alert'}>
          {said.text}
        </p>
      )}
    </div>
  );
}
