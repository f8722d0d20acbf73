// An automation's runs, newest first: what started each (a schedule, a catch-up, an event, Run
// now), how it ended and why, the turns and tokens it took, and its reply; missed and skipped
// runs are in the list too.
import type { Automation, AutomationRun } from '../../../../shared/model/automations';
import { RUN_STATUS_WORDS } from '../../../../shared/automationWords';
import { useQuery } from '../../api/useQuery';
import { ErrorState, Loading } from '../../components/StateViews';
import { Time } from '../../components/Time';

/** " · 2 turns · 1,240 tokens · branch letagents/…": what a run used, after its outcome. */
export function runFacts(run: AutomationRun): string {
  const parts: string[] = [];
  if (run.turns.length > 0) parts.push(`${run.turns.length} turn${run.turns.length === 1 ? '' : 's'}`);
  const tokens = run.inputTokens + run.outputTokens;
  if (tokens > 0) parts.push(`${tokens.toLocaleString('en-US')} tokens`);
  if (run.costUsd !== null && run.costUsd > 0) parts.push(`$${run.costUsd.toFixed(4)}`);
  if (run.branch) parts.push(`its changes are on ${run.branch}`);
  return parts.length === 0 ? '' : ` · ${parts.join(' · ')}`;
}

export function RunHistory({ id, automation }: { id: string; automation: Automation }) {
  const runs = useQuery('automations.runs', { automationId: automation.automationId, limit: 20 }, (e) => e.type === 'automation.changed' && e.automationId === automation.automationId);
  if (runs.status === 'loading') return <Loading label="Loading runs…" />;
  if (runs.status === 'error' && !runs.data) return <ErrorState message={runs.error} onRetry={runs.reload} />;
  return (
    <div id={id} className="activity">
      {runs.data!.length === 0 ? (
        <p className="muted">No runs yet.</p>
      ) : (
        <ol className="activity-turns" aria-label="Runs, newest first">
          {runs.data!.map((run) => (
            <li key={run.number} className={`activity-turn run-${run.status}`}>
              <div className="activity-turn-head">
                <strong>Run {run.number}</strong>
                <Time iso={run.startedAt} />
                <span className="activity-facts">
                  {RUN_STATUS_WORDS[run.status]}
                  {runFacts(run)}
                </span>
              </div>
              <p className="activity-text">{run.causeText}</p>
              {run.reason && run.status !== 'missed' && <p className="activity-error">{run.reason}</p>}
              {run.turns.length > 0 && automation.target.kind === 'agent' && (
                <p className="muted">
                  {automation.target.name}'s turn{run.turns.length === 1 ? '' : 's'} {run.turns.join(', ')} (its activity on the Agents page)
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
