// The Agents page from the sidebar: the managed agents the app runs, then the roster across all rooms.
import { AgentsRoster } from './AgentsRoster';
import { ManagedAgents } from './managed/ManagedAgents';

export function AgentsPage() {
  return (
    <section className="page" aria-labelledby="agents-title">
      <header className="page-header">
        <h1 id="agents-title">Agents</h1>
        <p className="muted">Every agent that has joined a room, whether connected now or not.</p>
      </header>
      <ManagedAgents />
      <AgentsRoster />
    </section>
  );
}
