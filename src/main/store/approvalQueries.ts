// SQL for approvals: each tool use an agent asked the person about, on this computer (the
// waiting agent runs here, whatever room it is in). Portable SQL; lists bounded.
import type { Queryable, Tx } from './port';

export type ApprovalSource = 'managed_turn' | 'channel';
export type ApprovalStatus = 'pending' | 'allowed' | 'denied' | 'closed';
export type ApprovalDecisionRow = 'allow_once' | 'allow_turn' | 'deny';

export interface ApprovalRow {
  /** This computer's approvals are numbered 1, 2, … */
  number: number;
  source: ApprovalSource;
  room_id: string | null;
  session_id: string | null;
  agent_id: string | null;
  turn_number: number | null;
  request_id: string | null;
  agent_name: string;
  tool: string;
  description: string;
  input_preview: string;
  status: ApprovalStatus;
  decision: ApprovalDecisionRow | null;
  note: string | null;
  decided_by: string | null;
  closed_reason: string | null;
  created_at: string;
  settled_at: string | null;
}

export type NewApprovalRow = Pick<
  ApprovalRow,
  'source' | 'room_id' | 'session_id' | 'agent_id' | 'turn_number' | 'request_id' | 'agent_name' | 'tool' | 'description' | 'input_preview'
>;

const MAX_PENDING = 500;

/** Stores a pending approval; returns its number. */
export async function insertApprovalRow(tx: Tx, row: NewApprovalRow): Promise<number> {
  const number = ((await tx.get<{ n: number | null }>('SELECT MAX(number) AS n FROM approvals'))?.n ?? 0) + 1;
  await tx.run(
    `INSERT INTO approvals (number, source, room_id, session_id, agent_id, turn_number, request_id, agent_name, tool, description,
       input_preview, status, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    number, row.source, row.room_id, row.session_id, row.agent_id, row.turn_number, row.request_id, row.agent_name, row.tool,
    row.description, row.input_preview, tx.now,
  );
  return number;
}

export function getApprovalRow(q: Queryable, number: number): Promise<ApprovalRow | undefined> {
  return q.get<ApprovalRow>('SELECT * FROM approvals WHERE number = ?', number);
}

/** Settles a pending approval; false when it was settled already (the first answer wins). */
export async function settleApprovalRow(
  tx: Tx,
  number: number,
  outcome: { status: Exclude<ApprovalStatus, 'pending'>; decision: ApprovalDecisionRow | null; note: string | null; decidedBy: string | null; closedReason: string | null },
): Promise<boolean> {
  const { changes } = await tx.run(
    `UPDATE approvals SET status = ?, decision = ?, note = ?, decided_by = ?, closed_reason = ?, settled_at = ?
     WHERE number = ? AND status = 'pending'`,
    outcome.status, outcome.decision, outcome.note, outcome.decidedBy, outcome.closedReason, tx.now, number,
  );
  return changes > 0;
}

export function listPendingApprovalRows(q: Queryable): Promise<ApprovalRow[]> {
  return q.all<ApprovalRow>(`SELECT * FROM approvals WHERE status = 'pending' ORDER BY number DESC LIMIT ${MAX_PENDING}`);
}

/** Pending approvals of an app that stopped: nobody waits for them any more. */
export async function closeAllPendingApprovalRows(tx: Tx, reason: string): Promise<number> {
  const { changes } = await tx.run(`UPDATE approvals SET status = 'closed', closed_reason = ?, settled_at = ? WHERE status = 'pending'`, reason, tx.now);
  return changes;
}
