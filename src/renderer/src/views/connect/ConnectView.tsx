// "Connect agents": a card per tool (with the agents that came through it), then the first
// prompt to paste into an agent.
import { useQuery } from '../../api/useQuery';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { FirstPromptCard } from './FirstPromptCard';
import { suggestedTool, ToolCard, type ToolAgents } from './ToolCard';
import type { AgentSession } from '../../../../shared/types';

/** Each tool's agents by name, from the roster (an agent's IDE label is its tool's label). */
function agentsByTool(agents: readonly AgentSession[]): (label: string) => ToolAgents {
  return (label) => {
    const mine = agents.filter((a) => a.ide === label);
    const names = (list: readonly AgentSession[]) => [...new Set(list.map((a) => a.name))];
    return { online: names(mine.filter((a) => a.online && !a.ended)), seen: names(mine) };
  };
}

export function ConnectView() {
  const status = useQuery('setup.status', {});
  const roster = useQuery('workers.list', {}, (e) => e.type === 'worker.changed');
  const agentsOf = agentsByTool(roster.data ?? []);
  const body = () => {
    if (status.status === 'loading') return <Loading label="Looking for agent tools…" />;
    if (status.status === 'error' && !status.data) {
      if (status.errorCode === 'not_available') {
        return (
          <EmptyState icon="plug" title="One-click set-up is not available yet">
            Use the first prompt below and add LetAgents to your agent's MCP settings by hand.
          </EmptyState>
        );
      }
      return <ErrorState message={status.error} onRetry={status.reload} />;
    }
    const suggested = suggestedTool(status.data!.tools);
    return (
      <ul className="tool-grid">
        {status.data!.tools.map((tool) => (
          <ToolCard key={tool.tool} tool={tool} agents={agentsOf(tool.label)} primary={tool.tool === suggested} onChanged={(next) => status.setData((old) => ({ tools: old.tools.map((t) => (t.tool === next.tool ? next : t)) }))} />
        ))}
      </ul>
    );
  };
  return (
    <section className="page" aria-labelledby="connect-title">
      <header className="page-header">
        <h1 id="connect-title">Connect agents</h1>
        <p className="muted">Connect adds LetAgents to a tool's MCP settings (keeping a backup of the old file). No password or token is written.</p>
      </header>
      {body()}
      <FirstPromptCard />
    </section>
  );
}
