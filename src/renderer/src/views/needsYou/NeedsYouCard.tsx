// One "Needs you" item: why it is here, who asked, the question, and an answer box. The
// answer is posted as a thread reply that wakes the agent; Dismiss takes it off the queue.
// A task in review is decided here too: Approve (to Done) or Request changes (back to In
// progress, with what should change as the answer).
// Items the app raised itself (issue 14) take actions instead (AlertActions).
// Each item says what it wants of you; a suggested answer is one click; "Unblocks: task_3"
// opens the task, and a blocked task waiting on this answer is shown inside it (issue 27).
// A tool request's words are the asking agent's: shown as text, never as Markdown, so they
// cannot pass for the app's own (a bold "approved", a link; issue 32 item 10).
import { useState } from 'react';
import type { NeedsYouItem, NeedsYouReason } from '../../../../shared/types';
import { errorMessage } from '../../api/client';
import { useRoomTitle } from '../../app/appData';
import { Avatar } from '../../components/Avatar';
import { Markdown } from '../../components/Markdown';
import { Time } from '../../components/Time';
import { AlertActions, type AlertActionsProps } from './AlertActions';
import { ApprovalActions, type ApprovalActionsProps } from './ApprovalActions';
import { unblockedTaskNumber } from './unblocking';

export const REASON_WORDS: Readonly<Record<NeedsYouReason, string>> = {
  question: 'Question',
  decision: 'Decision',
  approval: 'Approval',
  review: 'Review request',
  task_in_review: 'Task in review',
  task_blocked: 'Blocked task',
  mention: 'Mentioned you',
  unanswered: 'Not picked up',
  idle_task: 'Task not started',
  loop: 'Loop paused',
  room_budget: 'Budget reached',
  agent_budget: 'Budget reached',
  agent_cant_run: "Can't run",
  tool_approval: 'Wants to use a tool',
};

/** What the item wants of you, after who it is from: "Juniper asks you". */
export const ASKS_YOU: Readonly<Record<NeedsYouReason, string>> = {
  question: 'asks you',
  decision: 'needs your decision',
  approval: 'needs your approval',
  review: 'asks you to review',
  task_in_review: 'asks you to review a task',
  task_blocked: 'is blocked and needs you',
  mention: 'mentioned you',
  unanswered: 'has not picked up your message',
  idle_task: 'has not started a task',
  loop: 'was paused by the loop guard',
  room_budget: 'reached the room budget',
  agent_budget: 'reached its budget',
  agent_cant_run: "can't run until you fix it",
  tool_approval: 'asks you to allow a tool use',
};

export interface NeedsYouCardProps {
  item: NeedsYouItem;
  /** The blocked task this answer unblocks, shown within this item. */
  blocked?: NeedsYouItem;
  onAnswer: (item: NeedsYouItem, text: string) => Promise<unknown>;
  onDismiss: (item: NeedsYouItem) => Promise<unknown>;
  onAct: AlertActionsProps['onAct'];
  onOpen: (item: NeedsYouItem) => void;
  /** A task in review: Approve moves it to Done (a note, if typed, is sent first). */
  onApprove: (item: NeedsYouItem, note: string) => Promise<unknown>;
  /** A task in review: the note says what to change; the task goes back to In progress. */
  onRequestChanges: (item: NeedsYouItem, note: string) => Promise<unknown>;
  /** A tool use an agent waits to have allowed. */
  onDecide: ApprovalActionsProps['onDecide'];
}

export function NeedsYouCard({ item, blocked, onAnswer, onDismiss, onAct, onOpen, onApprove, onRequestChanges, onDecide }: NeedsYouCardProps) {
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setAnswer('');
    } catch (thrown) {
      setError(errorMessage(thrown));
    } finally {
      setBusy(false);
    }
  };
  const label = `${REASON_WORDS[item.reason]} from ${item.from}: ${item.title}`;
  const review = item.reason === 'task_in_review' && item.ref.kind === 'task';
  const requestChanges = () => {
    if (answer.trim() === '') return setError(`Say what should change, then press Request changes: ${item.from} gets it as the answer.`);
    void act(() => onRequestChanges(item, answer));
  };
  const room = useRoomTitle()(item.ref, item.roomName);
  const unblocks = unblockedTaskNumber(item);
  const openUnblocked = () =>
    unblocks !== null && onOpen(blocked ?? { ...item, ref: { kind: 'task', roomId: item.ref.roomId, number: unblocks, place: item.ref.place } });
  const canAnswer = !item.alert && !review;
  return (
    <li className={`needs-card reason-${item.reason}`}>
      <article aria-label={label}>
        <header className="needs-head">
          <Avatar name={item.from} size={28} />
          <div className="needs-who">
            <span className="needs-from">
              <strong className="truncate" title={item.from}>{item.from}</strong>
              <span>{ASKS_YOU[item.reason]}, in</span>
              <span className="truncate" title={room}>{room}</span>
            </span>
            <Time className="muted" iso={item.createdAt} />
          </div>
          <span className={`badge reason-badge reason-badge-${item.reason}`}>{REASON_WORDS[item.reason]}</span>
        </header>
        <h3 className="needs-title">{item.title}</h3>
        {item.body && (item.approval ? <p className="needs-plain">{item.body}</p> : <Markdown text={item.body} />)}
        {item.recommendation && (
          <p className="needs-note">
            <strong>Suggested:</strong> {item.recommendation}
            {canAnswer && (
              <button type="button" className="btn btn-small needs-accept" onClick={() => void act(() => onAnswer(item, item.recommendation!))} disabled={busy}>
                Answer with this
              </button>
            )}
          </p>
        )}
        {item.unblocks && (
          <p className="needs-note">
            <strong>Unblocks:</strong>{' '}
            {unblocks === null ? (
              item.unblocks
            ) : (
              <button type="button" className="link-button" onClick={openUnblocked}>
                {item.unblocks}
              </button>
            )}
            {blocked && (
              <span className="muted">
                {' '}
                — “{blocked.title}”, which {blocked.from} marked blocked: your answer lets {blocked.from} go on.
              </span>
            )}
          </p>
        )}
        {item.approval ? (
          <ApprovalActions item={item} onDecide={onDecide} />
        ) : item.alert ? (
          <AlertActions item={item} onAct={onAct} onDismiss={onDismiss} onOpen={onOpen} />
        ) : (
          <form
            className="needs-answer"
            onSubmit={(event) => {
              event.preventDefault();
              if (answer.trim()) void act(() => onAnswer(item, answer));
            }}
          >
            <textarea
              rows={2}
              value={answer}
              onChange={(e) => (setAnswer(e.target.value), setError(null))}
              placeholder={review ? `A note for ${item.from} (what should change)…` : `Answer ${item.from}…`}
              aria-label={review ? `Note for ${item.from}` : `Answer ${item.from}`}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                  event.preventDefault();
                  if (answer.trim()) void act(() => onAnswer(item, answer));
                }
              }}
            />
            {error && <p className="form-error" role="alert">{error}</p>}
            <div className="needs-actions">
              <button type="button" className="btn btn-ghost" onClick={() => onOpen(item)}>
                {item.ref.kind === 'task' ? 'Open task' : 'Open in room'}
              </button>
              <span className="spacer" />
              <button type="button" className="btn" onClick={() => void act(() => onDismiss(item))} disabled={busy}>
                Dismiss
              </button>
              {review ? (
                <>
                  <button type="button" className="btn" onClick={requestChanges} disabled={busy}>
                    Request changes
                  </button>
                  <button type="button" className="btn btn-primary" onClick={() => void act(() => onApprove(item, answer))} disabled={busy}>
                    Approve
                  </button>
                </>
              ) : (
                <button type="submit" className="btn btn-primary" disabled={busy || answer.trim() === ''}>
                  Send answer
                </button>
              )}
            </div>
          </form>
        )}
      </article>
    </li>
  );
}
