// SQL for approvals: each tool use an agent asked the person about, on this computer (the
// waiting agent runs here, whatever room it is in). Portable SQL; lists bounded.
import type { Queryable, Tx } from './port';

export type ApprovalSource = 'managed_turn' | 'channel';
export type ApprovalStatus = 'pending' | 'allowed' | 'denied' | 'closed';
export type ApprovalDecisionRow = 'allow_once' | 'allow_turn' | 'deny';
/** How a request ended once settled: the agent went on, nobody answered in time, or its turn or session ended. */
export type ApprovalOutcomeRow = 'went_on' | 'expired' | 'session_ended';

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
  /** The paired phone the answer came from; null: this computer's window (or no person). */
  decided_via: string | null;
  /** When the answer reached the agent's process. */
  delivered_at: string | null;
  /** Why the last answer could not reach the agent (the request is pending again meanwhile). */
  delivery_error: string | null;
  outcome: ApprovalOutcomeRow | null;
  outcome_at: string | null;
  /** The person took it off the queue once it was over. */
  cleared_at: string | null;
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

/**
 * Who denied a tool this managed turn asked for: a person (any of its requests), else the time
 * limit (one ran out unanswered: denied with nobody deciding); null when neither did.
 */
export async function deniedInTurn(q: Queryable, agentId: string, turnNumber: number): Promise<'person' | 'time_limit' | null> {
  const row = await q.get<{ by_person: number }>(
    `SELECT CASE WHEN decided_by IS NULL THEN 0 ELSE 1 END AS by_person FROM approvals
       WHERE agent_id = ? AND turn_number = ? AND status = 'denied' ORDER BY by_person DESC LIMIT 1`,
    agentId, turnNumber,
  );
  return row === undefined ? null : row.by_person ? 'person' : 'time_limit';
}

export interface ApprovalSettlement {
  status: Exclude<ApprovalStatus, 'pending'>;
  decision: ApprovalDecisionRow | null;
  note: string | null;
  decidedBy: string | null;
  decidedVia?: string | null;
  closedReason: string | null;
  /** Set at once when nothing is left to deliver (expired, session ended). */
  outcome?: ApprovalOutcomeRow | null;
}

/** Settles a pending approval; false when it was settled already (the first answer wins). */
export async function settleApprovalRow(tx: Tx, number: number, outcome: ApprovalSettlement): Promise<boolean> {
  const ended = outcome.outcome ?? null;
  const { changes } = await tx.run(
    `UPDATE approvals SET status = ?, decision = ?, note = ?, decided_by = ?, decided_via = ?, closed_reason = ?, settled_at = ?,
       outcome = ?, outcome_at = ?, delivery_error = NULL
     WHERE number = ? AND status = 'pending'`,
    outcome.status, outcome.decision, outcome.note, outcome.decidedBy, outcome.decidedVia ?? null, outcome.closedReason, tx.now,
    ended, ended === null ? null : tx.now, number,
  );
  return changes > 0;
}

/** The answer reached the agent's process. */
export async function markApprovalDelivered(tx: Tx, number: number): Promise<boolean> {
  const { changes } = await tx.run(
    `UPDATE approvals SET delivered_at = ?, delivery_error = NULL WHERE number = ? AND status <> 'pending' AND delivered_at IS NULL`,
    tx.now, number,
  );
  return changes > 0;
}

/** The answer could not reach the agent: the request is open again, saying why. */
export async function reopenApprovalRow(tx: Tx, number: number, error: string): Promise<boolean> {
  const { changes } = await tx.run(
    `UPDATE approvals SET status = 'pending', decision = NULL, note = NULL, decided_by = NULL, decided_via = NULL, settled_at = NULL,
       delivered_at = NULL, delivery_error = ? WHERE number = ? AND status <> 'pending' AND outcome IS NULL`,
    error, number,
  );
  return changes > 0;
}

/** How a settled request ended (only the first outcome counts). */
export async function setApprovalOutcome(tx: Tx, number: number, outcome: ApprovalOutcomeRow): Promise<boolean> {
  const { changes } = await tx.run(
    `UPDATE approvals SET outcome = ?, outcome_at = ? WHERE number = ? AND status <> 'pending' AND outcome IS NULL`,
    outcome, tx.now, number,
  );
  return changes > 0;
}

/** The person took a request that is over off the queue. */
export async function clearApprovalRow(tx: Tx, number: number): Promise<boolean> {
  const { changes } = await tx.run(`UPDATE approvals SET cleared_at = ? WHERE number = ? AND status <> 'pending' AND cleared_at IS NULL`, tx.now, number);
  return changes > 0;
}

export function listPendingApprovalRows(q: Queryable): Promise<ApprovalRow[]> {
  return q.all<ApprovalRow>(`SELECT * FROM approvals WHERE status = 'pending' ORDER BY number DESC LIMIT ${MAX_PENDING}`);
}

/**
 * What the queue shows: every pending request, and those settled since `since` the person has
 * not cleared (so every screen sees how an answer travelled), newest first.
 */
export function listShownApprovalRows(q: Queryable, since: string): Promise<ApprovalRow[]> {
  return q.all<ApprovalRow>(
    `SELECT * FROM approvals WHERE status = 'pending' OR (settled_at >= ? AND cleared_at IS NULL) ORDER BY number DESC LIMIT ${MAX_PENDING}`,
    since,
  );
}

/**
 * Requests of an app that stopped: nobody waits for the pending ones any more, and an answer
 * that had reached the agent never learnt whether it went on.
 */
export async function closeAllPendingApprovalRows(tx: Tx, reason: string): Promise<number> {
  const { changes } = await tx.run(
    `UPDATE approvals SET status = 'closed', closed_reason = ?, settled_at = ?, outcome = 'session_ended', outcome_at = ? WHERE status = 'pending'`,
    reason, tx.now, tx.now,
  );
  await tx.run(`UPDATE approvals SET outcome = 'session_ended', outcome_at = ? WHERE status <> 'pending' AND outcome IS NULL`, tx.now);
  return changes;
}
