// The Agents page from the sidebar: the managed agents the app runs, then the roster across all rooms.
import { useNavigation } from '../../app/navigation';
import { AgentsRoster } from './AgentsRoster';
import { ManagedAgents } from './managed/ManagedAgents';

export function AgentsPage() {
  const { route } = useNavigation();
  return (
    <section className="page" aria-labelledby="agents-title">
      <header className="page-header">
        <h1 id="agents-title">Agents</h1>
        <p className="muted">Every agent in your rooms: the ones LetAgents runs (managed), then the ones connected from your tools; agents that left are under Past agents.</p>
      </header>
      <ManagedAgents startAdding={route.view === 'agents' && route.adding === true} />
      <AgentsRoster />
    </section>
  );
}
