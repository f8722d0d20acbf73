// Under a person's message that named nobody: whom it woke, as decided when it was sent
// ("→ Cedar"), and when that was nobody, the note only the person sees: "No agent was woken:
// mention one (@Cedar) or @all", each mention one click (a reply to the message naming it).
import { createContext, useContext, useState, type ReactNode } from 'react';
import type { TimelineMessage } from '../../../../shared/types';
import { errorMessage } from '../../api/client';
import { wakeText, wakeWhy } from '../../lib/wakePreview';

interface WakeActions {
  readonly agentNames: readonly string[];
  /** Posts `@name` as a reply to message `number`. */
  mention(number: number, name: string): Promise<unknown>;
}

const WakeContext = createContext<WakeActions | null>(null);

export function WakeActionsProvider({ value, children }: { value: WakeActions; children: ReactNode }) {
  return <WakeContext.Provider value={value}>{children}</WakeContext.Provider>;
}

export function WakeNote({ message }: { message: TimelineMessage }) {
  const actions = useContext(WakeContext);
  const wakes = message.wakes;
  if (!wakes) return null;
  if (wakes.to !== 'nobody' || !message.fromYou || !actions) {
    return (
      <p className="message-wakes" title={wakeWhy(wakes)}>
        {wakeText(wakes)}
      </p>
    );
  }
  return <NobodyWoken number={message.number} actions={actions} />;
}

function NobodyWoken({ number, actions }: { number: number; actions: WakeActions }) {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const handles = [...actions.agentNames.map((n) => `@${n.replace(/\s+/g, '')}`), '@all'];
  const mention = (handle: string) => {
    setError(null);
    actions.mention(number, handle).then(
      () => setSent(handle),
      (thrown) => setError(errorMessage(thrown)),
    );
  };
  return (
    <div className="wake-note" role="note" aria-label="No agent was woken">
      <span>
        No agent was woken: mention one{actions.agentNames.length > 0 ? ` (${handles[0]})` : ''} or @all.
      </span>
      {sent === null ? (
        <span className="wake-note-mentions">
          {handles.map((h) => (
            <button key={h} type="button" className="btn btn-small" onClick={() => mention(h)} title={`Ask ${h} about this message`}>
              {h}
            </button>
          ))}
        </span>
      ) : (
        <span className="wake-note-sent">Asked {sent}.</span>
      )}
      {error && <span className="form-error" role="alert">{error}</span>}
    </div>
  );
}
