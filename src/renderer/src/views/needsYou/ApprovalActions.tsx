// A tool use an agent waits to have allowed: the command or path and its whole input (in boxes
// that scroll, characters that print as nothing shown by their code), a note the agent sees,
// and Allow once / Allow for this turn / Deny, with what Allow means: the command runs as the
// person. An input cut short is never offered for Allow. An answer that came too late (the
// terminal, the time limit or the end of the turn answered first) says so.
import { useState } from 'react';
import type { ApprovalDecision, NeedsYouItem } from '../../../../shared/types';
import { errorMessage } from '../../api/client';
import { Time } from '../../components/Time';
import { visible } from '../../lib/unseenCharacters';
import { isRiskyTool } from '../../../../shared/model/approvals';
import { RiskyConfirm } from './RiskyConfirm';

const DECISION_WORDS: Readonly<Record<ApprovalDecision, string>> = {
  allow_once: 'Allow once',
  allow_turn: 'Allow for this turn',
  deny: 'Deny',
};

export interface ApprovalActionsProps {
  item: NeedsYouItem;
  onDecide: (item: NeedsYouItem, decision: ApprovalDecision, note: string) => Promise<{ settled: boolean; message: string }>;
  /** On a phone: allowing a risky request (a shell command) asks once more (issue 37). */
  confirmRisky?: boolean;
}

export function ApprovalActions({ item, onDecide, confirmRisky = false }: ApprovalActionsProps) {
  const approval = item.approval!;
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ApprovalDecision | null>(null);
  const decide = async (decision: ApprovalDecision) => {
    if (confirmRisky && decision !== 'deny' && confirming === null && isRiskyTool(approval.tool)) return setConfirming(decision);
    setConfirming(null);
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
  if (confirming) {
    return <RiskyConfirm item={item} busy={busy} answer={label(confirming)} onConfirm={() => void decide(confirming)} onBack={() => setConfirming(null)} />;
  }
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
