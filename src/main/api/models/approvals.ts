// A pending approval as the "Needs you" queue shows it: who asks, for which tool, the command
// or path, the whole input, and the answers the person can give (no Allow for an input cut short).
import type { NeedsYouItem } from '../../../shared/model/needsYou';
import { inputCut } from '../../approvals/requestText';
import type { ApprovalRow } from '../../store/approvalQueries';

export function toApprovalItem(row: ApprovalRow & { expires_at: string | null }, roomName: string): NeedsYouItem {
  const channel = row.source === 'channel';
  const cut = inputCut(row);
  return {
    ref: { kind: 'approval', roomId: row.room_id ?? '', place: 'local', number: row.number },
    reason: 'tool_approval',
    roomName,
    title: `${row.agent_name} asks to use ${row.tool}`,
    // The command or description is shown whole below (approval.summary), never again as text here (issue 35).
    body: channel ? "Asked in its terminal too: whichever answers first counts. An answer here after the terminal's changes nothing." : '',
    from: row.agent_name,
    createdAt: row.created_at,
    recommendation: null,
    unblocks: null,
    threadRootNumber: null,
    alert: null,
    approval: {
      number: row.number,
      source: row.source,
      tool: row.tool,
      summary: row.description,
      inputPreview: row.input_preview,
      inputCut: cut,
      choices: cut ? ['deny'] : channel ? ['allow_once', 'deny'] : ['allow_once', 'allow_turn', 'deny'],
      expiresAt: row.expires_at,
    },
  };
}
