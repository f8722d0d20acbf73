// A managed agent's activity: its latest turns, newest first — why each started, the tools
// it called, what it said, how long it took, tokens and cost, and errors.
import type { ActivityEntry } from '../../../../../shared/types';
import { useQuery } from '../../../api/useQuery';
import { ErrorState, Loading } from '../../../components/StateViews';
import { Time } from '../../../components/Time';
import { turnFacts } from './managedWords';

const ENTRY_WORDS: Record<ActivityEntry['kind'], string> = {
  trigger: 'Why',
  tool_call: 'Tool',
  tool_result: 'Result',
  text: 'Said',
  error: 'Error',
  note: 'Note',
};

export function ActivityLog({ id, agentId }: { id: string; agentId: string }) {
  const activity = useQuery('agents.activity', { agentId, limit: 10 }, (e) => (e.type === 'agent.activity' || e.type === 'agent.changed') && e.agentId === agentId);
  if (activity.status === 'loading') return <Loading label="Loading activity…" />;
  if (activity.status === 'error' && !activity.data) return <ErrorState message={activity.error} onRetry={activity.reload} />;
  const turns = activity.data!.turns;
  return (
    <div id={id} className="activity">
      {turns.length === 0 ? (
        <p className="muted">No turns yet. A mention in its room, a task handed to it or Run now starts one.</p>
      ) : (
        <ol className="activity-turns" aria-label="Turns, newest first">
          {turns.map((turn) => (
            <li key={turn.number} className={`activity-turn turn-${turn.status}`}>
              <div className="activity-turn-head">
                <strong>Turn {turn.number}</strong>
                <Time iso={turn.startedAt} />
                {turn.automation && (
                  <span className="pill activity-automation">
                    Automation “{turn.automation.name}”, run {turn.automation.run}
                  </span>
                )}
                <span className="activity-facts">{turnFacts(turn)}</span>
              </div>
              <ul className="activity-entries">
                {turn.entries.map((entry) => (
                  <li key={entry.seq} className={`activity-entry entry-${entry.kind}`}>
                    <span className="activity-kind">{ENTRY_WORDS[entry.kind]}</span>
                    <span className="activity-text">{entry.text}</span>
                  </li>
                ))}
              </ul>
              {turn.error && !turn.entries.some((e) => e.kind === 'error' && e.text === turn.error) && (
                <p className="activity-error" role="note">
                  {turn.error}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
