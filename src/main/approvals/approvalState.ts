// How an approval stands, in words and as a phase every screen shows the same way (issue 37):
// waiting → answered (by whom, from which screen) → delivered to the agent's process → the agent
// went on; or it expired, or the session ended; or the answer could not be delivered and the
// request is open again. Never "allowed" as if done while the agent still waits.
import type { ApprovalPhase } from '../../shared/model/approvals';
import type { ApprovalRow } from '../store/approvalQueries';

type Answered = Pick<ApprovalRow, 'status' | 'decision' | 'note' | 'decided_by' | 'decided_via' | 'closed_reason'>;

/** Where an answer came from: "on this computer" or "from <phone>". */
export function screenText(via: string | null): string {
  return via === null ? 'on this computer' : `from ${via}`;
}

/** "Allowed once by Ada from Pixel 8", for an answer given by a person. */
export function answererText(row: Answered): string {
  const what = row.status === 'denied' ? 'Denied' : row.decision === 'allow_turn' ? 'Allowed for this turn' : 'Allowed once';
  return row.decided_by ? `${what} by ${row.decided_by} ${screenText(row.decided_via)}` : what;
}

/** How a settled request ended, in a few words for the log and the item. */
export function settledText(row: Pick<ApprovalRow, 'status' | 'decision' | 'note' | 'decided_by' | 'closed_reason'> & { decided_via?: string | null }): string {
  const by = row.decided_by ? ` by ${row.decided_by}${row.decided_via ? ` from ${row.decided_via}` : ''}` : '';
  if (row.status === 'allowed') return `allowed ${row.decision === 'allow_turn' ? 'for this turn' : 'once'}${by}.`;
  if (row.status === 'denied') return row.decided_by ? `denied${by}${row.note ? `: ${row.note}` : '.'}` : (row.closed_reason ?? 'denied.');
  if (row.status === 'closed') return `closed: ${row.closed_reason ?? 'nobody waits for it any more.'}`;
  return 'still waiting.';
}

/** The phase of a request (see the header). */
export function phaseOf(row: Pick<ApprovalRow, 'status' | 'decided_by' | 'delivered_at' | 'delivery_error' | 'outcome'>): ApprovalPhase {
  if (row.status === 'pending') return row.delivery_error ? 'undelivered' : 'waiting';
  if (row.outcome === 'went_on') return 'went_on';
  if (row.outcome === 'expired') return 'expired';
  if (row.outcome === 'session_ended') return 'session_ended';
  return row.delivered_at ? 'delivered' : 'answered';
}

const AGENT_WAITS = 'The agent still waits.';

/** One sentence for the item: what happened to the answer so far. */
export function phaseText(row: Answered & Pick<ApprovalRow, 'delivered_at' | 'delivery_error' | 'outcome' | 'agent_name'>): string {
  const phase = phaseOf(row);
  const who = row.decided_by ? answererText(row) : null;
  switch (phase) {
    case 'waiting':
      return `Waiting for your answer. ${AGENT_WAITS}`;
    case 'undelivered':
      return row.delivery_error ?? `Your answer could not be delivered. ${AGENT_WAITS}`;
    case 'answered':
      return `${who}. Delivering it to ${row.agent_name}…`;
    case 'delivered':
      return `${who}. Delivered to ${row.agent_name}; waiting for it to go on.`;
    case 'went_on':
      // Settled without us (its terminal answered): the reason says so.
      return who ? `${who}. Delivered; the agent went on.` : (row.closed_reason ?? 'The agent went on.');
    case 'expired':
      return row.closed_reason ?? 'Nobody answered in time: not allowed.';
    case 'session_ended':
      return who && row.delivered_at
        ? `${who}. Delivered, then the session ended before the agent went on.`
        : `The session ended: ${row.closed_reason ?? 'nobody waits for it any more.'}`;
  }
}
