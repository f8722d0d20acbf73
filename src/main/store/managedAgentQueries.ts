// Managed agents, their turns and activity log: the only SQL for those tables. Plain,
// portable SQL (no SQLite-only syntax) so the store can move to another database.
import type { Db } from './database';
import type { Tx } from './store';

export type ProviderIdRow = 'claude_code' | 'codex';
export type PermissionsRow = 'read_only' | 'edit' | 'provider_default';
export type HeldReason = 'turns_per_hour' | 'daily_tokens';
export type TurnStatusRow = 'running' | 'done' | 'failed' | 'stopped' | 'timed_out';
export type TriggerKindRow = 'message' | 'task' | 'run_now';
export type ActivityKindRow = 'trigger' | 'tool_call' | 'tool_result' | 'text' | 'error' | 'note';

export interface ManagedAgentRow {
  agent_id: string;
  worker_id: string;
  room_id: string;
  provider: ProviderIdRow;
  folder: string;
  instructions: string;
  model: string | null;
  permissions: PermissionsRow;
  turns_per_hour: number | null;
  daily_token_cap: number | null;
  desired_state: 'running' | 'paused';
  held_reason: HeldReason | null;
  held_request_number: number | null;
  budget_reset_at: string | null;
  provider_session_id: string | null;
  provider_totals_json: string | null;
  next_turn_number: number;
  next_activity_seq: number;
  created_at: string;
  updated_at: string;
}

export interface TurnRow {
  agent_id: string;
  number: number;
  trigger_kind: TriggerKindRow;
  trigger_text: string;
  status: TurnStatusRow;
  started_at: string;
  ended_at: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  error: string | null;
}

export interface ActivityRow {
  agent_id: string;
  seq: number;
  turn_number: number;
  kind: ActivityKindRow;
  text: string;
  created_at: string;
}

const MAX_AGENTS = 500;
const MAX_TURNS_LISTED = 50;
const MAX_ACTIVITY_PER_TURN = 500;

export type NewManagedAgentRow = Pick<
  ManagedAgentRow,
  'agent_id' | 'worker_id' | 'room_id' | 'provider' | 'folder' | 'instructions' | 'model' | 'permissions' | 'turns_per_hour' | 'daily_token_cap'
>;

export function insertManagedAgentRow(tx: Tx, row: NewManagedAgentRow): void {
  tx.db
    .prepare(
      `INSERT INTO managed_agents (agent_id, worker_id, room_id, provider, folder, instructions, model, permissions,
         turns_per_hour, daily_token_cap, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(row.agent_id, row.worker_id, row.room_id, row.provider, row.folder, row.instructions, row.model, row.permissions,
      row.turns_per_hour, row.daily_token_cap, tx.now, tx.now);
}

export function getManagedAgentRow(db: Db, agentId: string): ManagedAgentRow | undefined {
  return db.prepare('SELECT * FROM managed_agents WHERE agent_id = ?').get(agentId) as ManagedAgentRow | undefined;
}

export function listManagedAgentRows(db: Db): ManagedAgentRow[] {
  return db.prepare('SELECT * FROM managed_agents ORDER BY created_at, agent_id LIMIT ?').all(MAX_AGENTS) as ManagedAgentRow[];
}

export function listManagedAgentRowsInRoom(db: Db, roomId: string): ManagedAgentRow[] {
  return db.prepare('SELECT * FROM managed_agents WHERE room_id = ? ORDER BY created_at LIMIT ?').all(roomId, MAX_AGENTS) as ManagedAgentRow[];
}

/** The state a person asked for and the budget hold; only the given fields change. */
export function updateManagedAgentState(
  tx: Tx,
  agentId: string,
  fields: Partial<Pick<ManagedAgentRow, 'desired_state' | 'held_reason' | 'held_request_number' | 'budget_reset_at'>>,
): void {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  const sets = entries.map(([k]) => `${k} = ?`).join(', ');
  tx.db.prepare(`UPDATE managed_agents SET ${sets}, updated_at = ? WHERE agent_id = ?`).run(...entries.map(([, v]) => v), tx.now, agentId);
}

/** The provider's own session to resume next turn, and its running totals (for providers that report totals). */
export function setProviderSession(tx: Tx, agentId: string, sessionId: string | null, totalsJson: string | null): void {
  tx.db
    .prepare('UPDATE managed_agents SET provider_session_id = ?, provider_totals_json = ?, updated_at = ? WHERE agent_id = ?')
    .run(sessionId, totalsJson, tx.now, agentId);
}

export function deleteManagedAgentRow(tx: Tx, agentId: string): boolean {
  tx.db.prepare('DELETE FROM managed_agent_activity WHERE agent_id = ?').run(agentId);
  tx.db.prepare('DELETE FROM managed_agent_turns WHERE agent_id = ?').run(agentId);
  return tx.db.prepare('DELETE FROM managed_agents WHERE agent_id = ?').run(agentId).changes > 0;
}

/** Takes the agent's next turn number or activity sequence number (inside the caller's write). */
function nextNumber(tx: Tx, agentId: string, counter: 'next_turn_number' | 'next_activity_seq'): number {
  const row = tx.db
    .prepare(`UPDATE managed_agents SET ${counter} = ${counter} + 1 WHERE agent_id = ? RETURNING ${counter} - 1 AS n`)
    .get(agentId) as { n: number } | undefined;
  if (!row) throw new Error(`${counter}: managed agent ${agentId} does not exist`);
  return row.n;
}

/** Opens a turn (status running) and returns its number. */
export function insertTurnRow(tx: Tx, agentId: string, trigger: { kind: TriggerKindRow; text: string }): number {
  const n = nextNumber(tx, agentId, 'next_turn_number');
  tx.db
    .prepare('INSERT INTO managed_agent_turns (agent_id, number, trigger_kind, trigger_text, status, started_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(agentId, n, trigger.kind, trigger.text, 'running', tx.now);
  return n;
}

export interface TurnOutcome {
  status: Exclude<TurnStatusRow, 'running'>;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  error: string | null;
}

export function finishTurnRow(tx: Tx, agentId: string, number: number, outcome: TurnOutcome): void {
  tx.db
    .prepare(
      `UPDATE managed_agent_turns SET status = ?, ended_at = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, error = ?
       WHERE agent_id = ? AND number = ?`,
    )
    .run(outcome.status, tx.now, outcome.inputTokens, outcome.outputTokens, outcome.costUsd, outcome.error, agentId, number);
}

export function countRunningTurns(db: Db): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM managed_agent_turns WHERE status = 'running'").get() as { n: number }).n;
}

/** Turns left running by an app that stopped mid-turn (start-up only). */
export function failInterruptedTurns(tx: Tx, error: string): number {
  return tx.db.prepare("UPDATE managed_agent_turns SET status = 'failed', ended_at = ?, error = ? WHERE status = 'running'").run(tx.now, error).changes;
}

export function insertActivityRow(tx: Tx, agentId: string, turn: number, kind: ActivityKindRow, text: string): number {
  const n = nextNumber(tx, agentId, 'next_activity_seq');
  tx.db
    .prepare('INSERT INTO managed_agent_activity (agent_id, seq, turn_number, kind, text, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(agentId, n, turn, kind, text, tx.now);
  return n;
}

/** Activity of turns older than `keepFromTurn` goes; the turns themselves stay for the budgets. */
export function pruneActivityRows(tx: Tx, agentId: string, keepFromTurn: number): void {
  tx.db.prepare('DELETE FROM managed_agent_activity WHERE agent_id = ? AND turn_number < ?').run(agentId, keepFromTurn);
}

/** Turns that ended before `before` (beyond any budget window) go. */
export function pruneTurnRows(tx: Tx, agentId: string, before: string): void {
  tx.db.prepare("DELETE FROM managed_agent_turns WHERE agent_id = ? AND status <> 'running' AND started_at < ?").run(agentId, before);
}

export function getTurnRow(db: Db, agentId: string, number: number): TurnRow | undefined {
  return db.prepare('SELECT * FROM managed_agent_turns WHERE agent_id = ? AND number = ?').get(agentId, number) as TurnRow | undefined;
}

/** The newest turns, newest first. */
export function listTurnRows(db: Db, agentId: string, limit: number): TurnRow[] {
  return db
    .prepare('SELECT * FROM managed_agent_turns WHERE agent_id = ? ORDER BY number DESC LIMIT ?')
    .all(agentId, Math.min(limit, MAX_TURNS_LISTED)) as TurnRow[];
}

export function listActivityRowsOfTurn(db: Db, agentId: string, turn: number): ActivityRow[] {
  return db
    .prepare('SELECT * FROM managed_agent_activity WHERE agent_id = ? AND turn_number = ? ORDER BY seq LIMIT ?')
    .all(agentId, turn, MAX_ACTIVITY_PER_TURN) as ActivityRow[];
}

export interface UsageTotals {
  turnsSinceHour: number;
  tokensSinceDay: number;
  costSinceDay: number | null;
}

/** Turns started since `hourStart`, and tokens and cost of turns started since `dayStart`. */
export function usageTotals(db: Db, agentId: string, hourStart: string, dayStart: string): UsageTotals {
  const turns = db
    .prepare('SELECT COUNT(*) AS n FROM managed_agent_turns WHERE agent_id = ? AND started_at >= ?')
    .get(agentId, hourStart) as { n: number };
  const day = db
    .prepare(
      `SELECT COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens, SUM(cost_usd) AS cost
       FROM managed_agent_turns WHERE agent_id = ? AND started_at >= ?`,
    )
    .get(agentId, dayStart) as { tokens: number; cost: number | null };
  return { turnsSinceHour: turns.n, tokensSinceDay: day.tokens, costSinceDay: day.cost };
}

/** Whether the worker is a managed agent in the room, and if so what the person asked of it. */
export function getManagedStateOfWorker(db: Db, workerId: string, roomId: string): Pick<ManagedAgentRow, 'agent_id' | 'desired_state' | 'held_reason'> | undefined {
  return db
    .prepare('SELECT agent_id, desired_state, held_reason FROM managed_agents WHERE worker_id = ? AND room_id = ?')
    .get(workerId, roomId) as Pick<ManagedAgentRow, 'agent_id' | 'desired_state' | 'held_reason'> | undefined;
}
