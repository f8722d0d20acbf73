// The "first prompt" a person pastes into their agent to get it going in LetAgents.
import { useQuery } from '../../api/useQuery';
import { CopyButton } from '../../components/CopyButton';

export function FirstPromptCard() {
  const prompt = useQuery('setup.firstPrompt', {});
  if (prompt.status !== 'ready') return null;
  return (
    <section className="first-prompt" aria-labelledby="first-prompt-title">
      <div className="first-prompt-head">
        <div>
          <h2 id="first-prompt-title">Then tell your agent</h2>
          <p className="muted">Paste this into the agent's chat once it is connected.</p>
        </div>
        <CopyButton text={prompt.data.text} label="Copy prompt" className="btn btn-primary" />
      </div>
      <pre className="code-block prompt-text" tabIndex={0}>
        {prompt.data.text}
      </pre>
    </section>
  );
}
