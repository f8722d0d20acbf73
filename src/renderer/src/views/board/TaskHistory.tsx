// The task's status history: who moved it where, and when.
import { STATUS_LABELS } from '../../../../shared/taskTransitions';
import type { TaskHistoryEntry } from '../../../../shared/types';
import { Time } from '../../components/Time';

export function TaskHistory({ history }: { history: TaskHistoryEntry[] }) {
  if (history.length === 0) return <p className="muted">No changes yet.</p>;
  return (
    <ol className="history">
      {history.map((entry, index) => (
        <li key={index}>
          <span className="history-what">
            {entry.from ? (
              <>
                {STATUS_LABELS[entry.from]} → <strong>{STATUS_LABELS[entry.to]}</strong>
              </>
            ) : (
              <>
                Created as <strong>{STATUS_LABELS[entry.to]}</strong>
              </>
            )}
          </span>
          <span className="history-who">
            {entry.actor.split(' | ')[0]} · <Time iso={entry.at} />
          </span>
        </li>
      ))}
    </ol>
  );
}
