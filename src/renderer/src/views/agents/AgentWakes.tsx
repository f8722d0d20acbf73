// Why the agent was woken: its latest wake in plain words, and on opening, the recent ones
// with the start of the message that woke it (a person can spot wasted wakes). Live.
import { useState } from 'react';
import { withStatusLabels } from '../../../../shared/taskTransitions';
import type { Wake } from '../../../../shared/types';
import { useQuery } from '../../api/useQuery';
import { Time } from '../../components/Time';
import { wakeReasonText } from '../../lib/wakes';

export function AgentWakes({ sessionId, place, lastWake }: { sessionId: string; place: string; lastWake: Wake | null }) {
  const [open, setOpen] = useState(false);
  const wakes = useQuery('workers.wakes', open ? { sessionId, place } : null, (e) => e.type === 'worker.woken' && e.sessionId === sessionId && e.place === place);
  if (!lastWake) return null;
  return (
    <details className="agent-wakes" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        <span className="agent-wake-reason">{wakeReasonText(lastWake)}</span>{' '}
        <Time className="muted" iso={lastWake.at} />
      </summary>
      {open && (
        <ol className="agent-wake-list" aria-label="Recent wakes">
          {(wakes.data ?? [lastWake]).map((wake) => (
            <li key={`${wake.at}-${wake.messageNumber}`}>
              <span>{wakeReasonText(wake)}</span>
              {wake.excerpt && <q className="muted">{withStatusLabels(wake.excerpt)}</q>}
              <Time className="muted" iso={wake.at} />
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
