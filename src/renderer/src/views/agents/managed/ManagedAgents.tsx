// "Managed agents" on the Agents page: agent CLIs the app starts in a folder and gives a
// turn whenever something in their room needs them, with "Add agent".
import { useState } from 'react';
import { useQuery } from '../../../api/useQuery';
import { Icon } from '../../../components/Icon';
import { ErrorState, Loading } from '../../../components/StateViews';
import { AddAgentDialog } from './AddAgentDialog';
import { ManagedAgentCard } from './ManagedAgentCard';

/** `startAdding`: opened from the Welcome screen's "Let LetAgents run one", with the Add dialog open. */
export function ManagedAgents({ startAdding = false }: { startAdding?: boolean }) {
  const agents = useQuery('agents.list', {}, (e) => e.type === 'agent.changed' || e.type === 'worker.changed');
  const [adding, setAdding] = useState(startAdding);
  // A host without managed agents (an older core) shows nothing rather than an error.
  if (agents.status === 'error' && agents.errorCode === 'not_available') return null;
  return (
    <section className="managed" aria-labelledby="managed-title">
      <header className="managed-head">
        <div>
          <h2 id="managed-title">Managed agents</h2>
          <p className="muted">The app starts these agents in their folder and gives them a turn when something in their room needs them.</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          <Icon name="plus" />
          Add agent
        </button>
      </header>
      {agents.status === 'loading' ? (
        <Loading label="Loading managed agents…" />
      ) : agents.status === 'error' && !agents.data ? (
        <ErrorState message={agents.error} onRetry={agents.reload} />
      ) : (agents.data ?? []).length === 0 ? (
        <p className="managed-empty muted">None yet. Add one to have it answer mentions and pick up tasks handed to it, without keeping a chat open.</p>
      ) : (
        <ul className="managed-list" aria-label="Managed agents">
          {agents.data!.map((agent) => (
            <ManagedAgentCard key={agent.agentId} agent={agent} onChanged={agents.reload} />
          ))}
        </ul>
      )}
      {adding && <AddAgentDialog onClose={() => setAdding(false)} onAdded={agents.reload} />}
    </section>
  );
}
