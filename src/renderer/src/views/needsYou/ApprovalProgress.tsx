// How an answered tool use travelled (issue 37), the same on every screen: who answered (and
// from which phone), whether it reached the agent's process, and whether the agent went on —
// or that the request expired or its session ended. An answer that could not be delivered
// says so; the request is open again above. Once it is over, Clear takes it off the queue.
import { useState } from 'react';
import type { ApprovalState, NeedsYouItem } from '../../../../shared/types';
import { errorMessage } from '../../api/client';

const FINAL = new Set<ApprovalState['phase']>(['went_on', 'expired', 'session_ended']);

interface Step {
  readonly label: string;
  readonly done: boolean;
}

function stepsOf(state: ApprovalState, agent: string): Step[] {
  const answered = state.by !== null;
  const ending =
    state.phase === 'expired' ? 'Nobody answered in time' : state.phase === 'session_ended' ? 'The session ended' : 'The agent went on';
  return [
    { label: `Answered by ${state.by}${state.via ? ` from ${state.via}` : ' on this computer'}`, done: answered },
    { label: `Delivered to ${agent}`, done: state.deliveredAt !== null },
    { label: ending, done: FINAL.has(state.phase) },
  ];
}

export function ApprovalProgress({ item, onClear }: { item: NeedsYouItem; onClear: (item: NeedsYouItem) => Promise<unknown> }) {
  const state = item.approval!.state;
  const [error, setError] = useState<string | null>(null);
  if (state.phase === 'waiting') return null;
  if (state.phase === 'undelivered') {
    return (
      <p className="approval-undelivered" role="alert">
        {state.text}
      </p>
    );
  }
  const clear = async () => {
    try {
      await onClear(item);
    } catch (thrown) {
      setError(errorMessage(thrown));
    }
  };
  return (
    <div className="approval-progress">
      <p className="approval-state" role="status">
        {state.text}
      </p>
      {/* Only an answer a person gave here travelled; one settled elsewhere (time limit, terminal) has just its sentence. */}
      {state.by !== null && (
        <ol className="approval-steps" aria-label="How your answer travelled">
          {stepsOf(state, item.from).map((step) => (
            <li key={step.label} className={step.done ? 'done' : 'pending'}>
              <span className="visually-hidden">{step.done ? 'Done: ' : 'Not yet: '}</span>
              {step.label}
            </li>
          ))}
        </ol>
      )}
      {error && <p className="form-error" role="alert">{error}</p>}
      {FINAL.has(state.phase) && (
        <div className="needs-actions">
          <span className="spacer" />
          <button type="button" className="btn" onClick={() => void clear()}>
            Clear
          </button>
        </div>
      )}
    </div>
  );
}
