// The second ask before allowing a risky request from a phone (issue 37): a shell command runs on
// the person's computer, and a thumb slips. Names the command again; Back returns to the choices.
import { useEffect, useRef } from 'react';
import type { NeedsYouItem } from '../../../../shared/types';
import { visible } from '../../lib/unseenCharacters';

export interface RiskyConfirmProps {
  item: NeedsYouItem;
  /** The answer being confirmed, as its button said it ("Allow once"). */
  answer: string;
  busy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}

export function RiskyConfirm({ item, answer, busy, onConfirm, onBack }: RiskyConfirmProps) {
  const approval = item.approval!;
  const heading = useRef<HTMLParagraphElement>(null);
  // Focus moves to the question, so a screen reader reads it and a keyboard lands on it.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="needs-answer approval approval-confirm" role="group" aria-label={`Confirm: ${answer}`}>
      <p ref={heading} tabIndex={-1} className="approval-confirm-question">
        <strong>{item.from}</strong> will run this on your computer. {answer}?
      </p>
      {approval.summary && (
        <pre className="approval-summary">
          <code>{visible(approval.summary)}</code>
        </pre>
      )}
      <div className="needs-actions">
        <button type="button" className="btn" disabled={busy} onClick={onBack}>
          Back
        </button>
        <span className="spacer" />
        <button type="button" className="btn btn-primary" disabled={busy} onClick={onConfirm}>
          Yes, {answer.charAt(0).toLowerCase() + answer.slice(1)}
        </button>
      </div>
    </div>
  );
}
