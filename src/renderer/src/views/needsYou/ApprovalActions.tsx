// A tool use an agent waits to have allowed: the command or path and its whole input (in boxes
// that scroll, characters that print as nothing shown by their code), a note the agent sees,
// and Allow once / Allow for this turn / Deny, with what Allow means: the command runs as the
// person. An input cut short is never offered for Allow. An answer that came too late (the
// terminal, the time limit or the end of the turn answered first) says so.
import { useState } from 'react';
import type { ApprovalDecision, NeedsYouItem } from '../../../../shared/types';
import { errorMessage } from '../../api/client';
import { Time } from '../../components/Time';

const DECISION_WORDS: Readonly<Record<ApprovalDecision, string>> = {
  allow_once: 'Allow once',
  allow_turn: 'Allow for this turn',
  deny: 'Deny',
};

export interface ApprovalActionsProps {
  item: NeedsYouItem;
  onDecide: (item: NeedsYouItem, decision: ApprovalDecision, note: string) => Promise<{ settled: boolean; message: string }>;
}

export function ApprovalActions({ item, onDecide }: ApprovalActionsProps) {
  const approval = item.approval!;
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const decide = async (decision: ApprovalDecision) => {
    setBusy(true);
    setSaid(null);
    try {
      const outcome = await onDecide(item, decision, note);
      if (!outcome.settled) setSaid(outcome.message);
    } catch (thrown) {
      setSaid(errorMessage(thrown));
    } finally {
      setBusy(false);
    }
  };
  // Channel requests say "Allow": the protocol has no "for this turn".
  const label = (d: ApprovalDecision) => (d === 'allow_once' && !approval.choices.includes('allow_turn') ? 'Allow' : DECISION_WORDS[d]);
  const mayAllow = approval.choices.some((d) => d !== 'deny');
  return (
    <div className="needs-answer approval">
      {approval.summary && (
        <pre className="approval-summary" aria-label={`${approval.tool} wants to run`}>
          <code>{visible(approval.summary)}</code>
        </pre>
      )}
      {approval.inputPreview && (
        <details>
          <summary>Everything it passes to {approval.tool}</summary>
          <pre className="approval-input"><code>{visible(approval.inputPreview)}</code></pre>
        </details>
      )}
      {approval.inputCut && (
        <p className="form-error" role="note">
          {approval.source === 'channel'
            ? 'Claude Code sent only part of this input. Answer in its terminal to allow it; here you can only deny it.'
            : 'This input is too long to show whole, so it can only be denied here.'}
        </p>
      )}
      {mayAllow && <p className="approval-rights">If you allow it, it runs as you, with your rights on this computer, not only in the agent's folder.</p>}
      {approval.expiresAt && (
        <p className="muted">
          Counts as denied if not answered <Time iso={approval.expiresAt} until />.
        </p>
      )}
      <textarea rows={2} value={note} onChange={(e) => setNote(e.target.value)} placeholder={`A note ${item.from} sees if you deny (optional)…`} aria-label={`Note for ${item.from}`} maxLength={2000} />
      {said && <p className="form-error" role="alert">{said}</p>}
      <div className="needs-actions">
        <span className="spacer" />
        {approval.choices.map((decision) => (
          <button key={decision} type="button" className={decision === 'deny' ? 'btn' : 'btn btn-primary'} disabled={busy} onClick={() => void decide(decision)}>
            {label(decision)}
          </button>
        ))}
      </div>
    </div>
  );
}

/** Characters that print as nothing or reorder what follows (controls, bidirectional marks, zero-width ones) shown by their code. */
const UNSEEN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]/g;

export function visible(text: string): string {
  return text.replace(UNSEEN, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
