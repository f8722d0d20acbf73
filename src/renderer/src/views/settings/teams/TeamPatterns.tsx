// A team's repo patterns, one per line: repo rooms whose id matches go to the team.
import { useEffect, useState } from 'react';
import type { TeamSummary } from '../../../../../shared/types';
import { useApi } from '../../../api/ApiContext';
import { errorMessage } from '../../../api/client';
import { useToast } from '../../../components/Toasts';

export function TeamPatterns({ team }: { team: TeamSummary }) {
  const api = useApi();
  const toast = useToast();
  const saved = team.patterns.join('\n');
  const [text, setText] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(saved), [saved]);
  const id = `team-patterns-${team.name}`;
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      const updated = await api.call('teams.setPatterns', { name: team.name, patterns: text.split('\n') });
      setText(updated.patterns.join('\n'));
      setError(null);
      toast(updated.patterns.length > 0 ? `Repo patterns of ${team.name} saved.` : `${team.name} has no repo patterns now.`);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  return (
    <form className="team-patterns" onSubmit={save}>
      <label htmlFor={id}>Repo patterns</label>
      <textarea
        id={id}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={Math.min(6, Math.max(2, text.split('\n').length))}
        placeholder="github.com/acme/*"
        spellCheck={false}
        aria-describedby={`${id}-help`}
        aria-invalid={error ? true : undefined}
      />
      <span id={`${id}-help`} className="field-help">
        One per line. Repo rooms whose id matches go to this team: * stands for any part, ** at the end for any depth.
      </span>
      {error && <p className="form-error" role="alert">{error}</p>}
      <button type="submit" className="btn btn-small" disabled={text.trim() === saved.trim()}>
        Save patterns
      </button>
    </form>
  );
}
