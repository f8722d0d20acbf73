// "Connect agents": a card per tool, then the first prompt to paste into an agent.
import { useQuery } from '../../api/useQuery';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { FirstPromptCard } from './FirstPromptCard';
import { suggestedTool, ToolCard } from './ToolCard';

export function ConnectView() {
  const status = useQuery('setup.status', {});
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
          <ToolCard key={tool.tool} tool={tool} primary={tool.tool === suggested} onChanged={(next) => status.setData((old) => ({ tools: old.tools.map((t) => (t.tool === next.tool ? next : t)) }))} />
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
