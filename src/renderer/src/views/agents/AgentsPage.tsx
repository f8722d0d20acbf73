// The Agents page from the sidebar: the roster across all rooms.
import { AgentsRoster } from './AgentsRoster';

export function AgentsPage() {
  return (
    <section className="page" aria-labelledby="agents-title">
      <header className="page-header">
        <h1 id="agents-title">Agents</h1>
        <p className="muted">Every agent that has joined a room, whether connected now or not.</p>
      </header>
      <AgentsRoster />
    </section>
  );
}
