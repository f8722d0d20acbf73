// The Automations page from the sidebar: agents that start on a schedule or an event in their
// room and stop at their limits — each with its next run and last run — and "Add automation".
import { useState } from 'react';
import { useQuery } from '../../api/useQuery';
import { Icon } from '../../components/Icon';
import { ErrorState, Loading } from '../../components/StateViews';
import { AutomationCard } from './AutomationCard';
import { AutomationDialog } from './AutomationDialog';

export function AutomationsView() {
  const automations = useQuery('automations.list', {}, (e) => e.type === 'automation.changed' || e.type === 'agent.changed' || e.type === 'auth.changed');
  const [adding, setAdding] = useState(false);
  return (
    <section className="page" aria-labelledby="automations-title">
      <header className="page-header automations-head">
        <div>
          <h1 id="automations-title">Automations</h1>
          <p className="muted">
            Agents that start on a schedule or when something happens in their room, one run at a time, and stop at their limits. They run on this computer while the app
            runs; a run missed while it was closed is counted, and caught up once.
          </p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          <Icon name="plus" />
          Add automation
        </button>
      </header>
      {automations.status === 'loading' ? (
        <Loading label="Loading automations…" />
      ) : automations.status === 'error' && !automations.data ? (
        <ErrorState message={automations.error} onRetry={automations.reload} />
      ) : (automations.data ?? []).length === 0 ? (
        <p className="managed-empty muted">None yet. Add one to have an agent triage every morning, review each task that reaches review, or look at CI when a check fails.</p>
      ) : (
        <ul className="managed-list" aria-label="Automations">
          {automations.data!.map((automation) => (
            <AutomationCard key={automation.automationId} automation={automation} onChanged={automations.reload} />
          ))}
        </ul>
      )}
      {adding && <AutomationDialog onClose={() => setAdding(false)} onSaved={automations.reload} />}
    </section>
  );
}
