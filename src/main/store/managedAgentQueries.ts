// Managed agents, their turns and activity log (this computer's, whatever room they sit in),
// and the rooms' managed members (in each room's own database, for every machine that reads
// it): the only SQL for those tables. Plain, portable SQL on both engines.
// The value lists are the shared model's (the database checks none of provider, trigger kind,
// turn status and activity kind since migration 9: these writes check them instead).
import {
  ActivityEntryKind, TriggerKind, TurnStatus, type AgentPermissions,
} from '../../shared/model/managedAgents';
import type { Queryable, Tx } from './port';

export type PermissionsRow = AgentPermissions;
export type HeldReason = 'turns_per_hour' | 'daily_tokens';
export type TurnStatusRow = TurnStatus;
export type TriggerKindRow = TriggerKind;
export type ActivityKindRow = ActivityEntryKind;

export interface ManagedAgentRow {
  agent_id: string;
  /** Its worker and room, in the database of `place`. */
  worker_id: string;
  room_id: string;
  /** Where its room lives: 'local' (this computer) or a team's name (since migration 11). */
  place: string;
  /** The name it was added under (the room holds its name now; this is shown while the room cannot be read). */
  name: string;
  /** A provider id of agents/providers (the app checks it when adding the agent). */
  provider: string;
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
  /** JSON: the triggers kept while it took no turns (paused, held, or its CLI could not run). */
  waiting_json: string | null;
  /** JSON: why its CLI cannot run and the fix, until the person resumes it; null: it can run. */
  cant_run_json: string | null;
  /** Until when its provider's usage limit holds it (it resumes by itself then); null: not held. */
  limit_until: string | null;
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
  'agent_id' | 'worker_id' | 'room_id' | 'place' | 'name' | 'provider' | 'folder' | 'instructions' | 'model' | 'permissions' | 'turns_per_hour' | 'daily_token_cap'
>;

export async function insertManagedAgentRow(tx: Tx, row: NewManagedAgentRow): Promise<void> {
  await tx.run(
    `INSERT INTO managed_agents (agent_id, worker_id, room_id, place, name, provider, folder, instructions, model, permissions,
         turns_per_hour, daily_token_cap, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.agent_id, row.worker_id, row.room_id, row.place, row.name, row.provider, row.folder, row.instructions, row.model,
    row.permissions, row.turns_per_hour, row.daily_token_cap, tx.now, tx.now,
  );
}

export function getManagedAgentRow(q: Queryable, agentId: string): Promise<ManagedAgentRow | undefined> {
  return q.get<ManagedAgentRow>('SELECT * FROM managed_agents WHERE agent_id = ?', agentId);
}

export function listManagedAgentRows(q: Queryable): Promise<ManagedAgentRow[]> {
  return q.all<ManagedAgentRow>('SELECT * FROM managed_agents ORDER BY created_at, agent_id LIMIT ?', MAX_AGENTS);
}

/** The state a person asked for and the budget hold; only the given fields change. */
export async function updateManagedAgentState(
  tx: Tx,
  agentId: string,
  fields: Partial<Pick<ManagedAgentRow, 'desired_state' | 'held_reason' | 'held_request_number' | 'budget_reset_at' | 'waiting_json' | 'cant_run_json' | 'limit_until'>>,
): Promise<void> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  const sets = entries.map(([k]) => `${k} = ?`).join(', ');
  await tx.run(
    `UPDATE managed_agents SET ${sets}, updated_at = ? WHERE agent_id = ?`,
    ...entries.map(([, v]) => v), tx.now, agentId,
  );
}

/** The provider's own session to resume next turn, and its running totals (for providers that report totals). */
export async function setProviderSession(tx: Tx, agentId: string, sessionId: string | null, totalsJson: string | null): Promise<void> {
  await tx.run(
    'UPDATE managed_agents SET provider_session_id = ?, provider_totals_json = ?, updated_at = ? WHERE agent_id = ?',
    sessionId, totalsJson, tx.now, agentId,
  );
}

export async function deleteManagedAgentRow(tx: Tx, agentId: string): Promise<boolean> {
  await tx.run('DELETE FROM managed_agent_activity WHERE agent_id = ?', agentId);
  await tx.run('DELETE FROM managed_agent_turns WHERE agent_id = ?', agentId);
  return (await tx.run('DELETE FROM managed_agents WHERE agent_id = ?', agentId)).changes > 0;
}

/** Takes the agent's next turn number or activity sequence number (inside the caller's write). */
async function nextNumber(tx: Tx, agentId: string, counter: 'next_turn_number' | 'next_activity_seq'): Promise<number> {
  const row = await tx.get<{ n: number }>(
    `UPDATE managed_agents SET ${counter} = ${counter} + 1 WHERE agent_id = ? RETURNING ${counter} - 1 AS n`,
    agentId,
  );
  if (!row) throw new Error(`${counter}: managed agent ${agentId} does not exist`);
  return row.n;
}

/** A value of one of the lists above, which the database no longer checks: a bug is caught before anything is written. */
function checkListed(list: readonly string[], value: string, what: string): void {
  if (!list.includes(value)) throw new Error(`${what} "${value}" is not one of ${list.join(', ')}`);
}

/** Opens a turn (status running) and returns its number. */
export async function insertTurnRow(tx: Tx, agentId: string, trigger: { kind: TriggerKindRow; text: string }): Promise<number> {
  checkListed(TriggerKind.options, trigger.kind, 'Trigger kind');
  const n = await nextNumber(tx, agentId, 'next_turn_number');
  await tx.run(
    'INSERT INTO managed_agent_turns (agent_id, number, trigger_kind, trigger_text, status, started_at) VALUES (?, ?, ?, ?, ?, ?)',
    agentId, n, trigger.kind, trigger.text, 'running', tx.now,
  );
  return n;
}

export interface TurnOutcome {
  status: Exclude<TurnStatusRow, 'running'>;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  error: string | null;
}

export async function finishTurnRow(tx: Tx, agentId: string, number: number, outcome: TurnOutcome): Promise<void> {
  checkListed(TurnStatus.options, outcome.status, 'Turn status');
  await tx.run(
    `UPDATE managed_agent_turns SET status = ?, ended_at = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, error = ?
       WHERE agent_id = ? AND number = ?`,
    outcome.status, tx.now, outcome.inputTokens, outcome.outputTokens, outcome.costUsd, outcome.error, agentId, number,
  );
}

export async function countRunningTurns(q: Queryable): Promise<number> {
  const row = await q.get<{ n: number }>("SELECT COUNT(*) AS n FROM managed_agent_turns WHERE status = 'running'");
  return row!.n;
}

/** Turns left running by an app that stopped mid-turn (start-up only). */
export async function failInterruptedTurns(tx: Tx, error: string): Promise<number> {
  return (await tx.run(
    "UPDATE managed_agent_turns SET status = 'failed', ended_at = ?, error = ? WHERE status = 'running'",
    tx.now, error,
  )).changes;
}

export async function insertActivityRow(tx: Tx, agentId: string, turn: number, kind: ActivityKindRow, text: string): Promise<number> {
  checkListed(ActivityEntryKind.options, kind, 'Activity kind');
  const n = await nextNumber(tx, agentId, 'next_activity_seq');
  await tx.run(
    'INSERT INTO managed_agent_activity (agent_id, seq, turn_number, kind, text, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    agentId, n, turn, kind, text, tx.now,
  );
  return n;
}

/** Activity of turns older than `keepFromTurn` goes; the turns themselves stay for the budgets. */
export async function pruneActivityRows(tx: Tx, agentId: string, keepFromTurn: number): Promise<void> {
  await tx.run(
    'DELETE FROM managed_agent_activity WHERE agent_id = ? AND turn_number < ?',
    agentId, keepFromTurn,
  );
}

/** Turns that ended before `before` (beyond any budget window) go. */
export async function pruneTurnRows(tx: Tx, agentId: string, before: string): Promise<void> {
  await tx.run(
    "DELETE FROM managed_agent_turns WHERE agent_id = ? AND status <> 'running' AND started_at < ?",
    agentId, before,
  );
}

export function getTurnRow(q: Queryable, agentId: string, number: number): Promise<TurnRow | undefined> {
  return q.get<TurnRow>('SELECT * FROM managed_agent_turns WHERE agent_id = ? AND number = ?', agentId, number);
}

/** The newest turns, newest first. */
export function listTurnRows(q: Queryable, agentId: string, limit: number): Promise<TurnRow[]> {
  return q.all<TurnRow>(
    'SELECT * FROM managed_agent_turns WHERE agent_id = ? ORDER BY number DESC LIMIT ?',
    agentId, Math.min(limit, MAX_TURNS_LISTED),
  );
}

export function listActivityRowsOfTurn(q: Queryable, agentId: string, turn: number): Promise<ActivityRow[]> {
  return q.all<ActivityRow>(
    'SELECT * FROM managed_agent_activity WHERE agent_id = ? AND turn_number = ? ORDER BY seq LIMIT ?',
    agentId, turn, MAX_ACTIVITY_PER_TURN,
  );
}

export interface UsageTotals {
  turnsSinceHour: number;
  tokensSinceDay: number;
  costSinceDay: number | null;
}

/** Turns started since `hourStart`, and tokens and cost of turns started since `dayStart`. */
export async function usageTotals(q: Queryable, agentId: string, hourStart: string, dayStart: string): Promise<UsageTotals> {
  const turns = await q.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM managed_agent_turns WHERE agent_id = ? AND started_at >= ?',
    agentId, hourStart,
  );
  const day = await q.get<{ tokens: number; cost: number | null }>(
    `SELECT COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens, SUM(cost_usd) AS cost
       FROM managed_agent_turns WHERE agent_id = ? AND started_at >= ?`,
    agentId, dayStart,
  );
  // COUNT and SUM always answer one row.
  return { turnsSinceHour: turns!.n, tokensSinceDay: day!.tokens, costSinceDay: day!.cost };
}

// Managed members: the rows of a room's own database (this computer's or a team's) that say
// which of its agents an app runs, for everyone who reads the room.

export interface ManagedMemberRow {
  room_id: string;
  worker_id: string;
  /** The id the app that runs it knows it by. */
  agent_id: string;
  /** That app (its heartbeat is in app_hosts) and its machine's name; null: this computer's room, run by this app. */
  host_id: string | null;
  host_label: string | null;
  /** 0 while paused, held by its budget or unable to run: the app starts no turn until its person resumes it. */
  takes_turns: number;
  /** While it waits for its owner's approval: the tool, the owner's name in the room, since when (else null). */
  approval_tool: string | null;
  approval_person: string | null;
  approval_since: string | null;
  created_at: string;
  updated_at: string;
  /** When that app last heartbeat here, read with the row. */
  host_heard_at: string | null;
}

export interface ManagedMember {
  readonly roomId: string;
  readonly workerId: string;
  readonly agentId: string;
  readonly hostId: string | null;
  readonly hostLabel: string | null;
  readonly takesTurns: boolean;
}

/**
 * Says (again) that the app `hostId` runs this worker in the room, and whether it takes turns now.
 * It waits for no approval then (the app just added it, or just started: nothing it asked waits).
 */
export async function upsertManagedMember(tx: Tx, m: ManagedMember): Promise<void> {
  await tx.run(
    `INSERT INTO managed_members (room_id, worker_id, agent_id, host_id, host_label, takes_turns, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (room_id, worker_id) DO UPDATE SET agent_id = excluded.agent_id, host_id = excluded.host_id,
         host_label = excluded.host_label, takes_turns = excluded.takes_turns, updated_at = excluded.updated_at,
         approval_tool = NULL, approval_person = NULL, approval_since = NULL`,
    m.roomId, m.workerId, m.agentId, m.hostId, m.hostLabel, m.takesTurns ? 1 : 0, tx.now, tx.now,
  );
}

/** Whether it takes turns now; false when the row is gone. */
export async function setManagedMemberTakesTurns(tx: Tx, agentId: string, takesTurns: boolean): Promise<boolean> {
  return (await tx.run('UPDATE managed_members SET takes_turns = ?, updated_at = ? WHERE agent_id = ?', takesTurns ? 1 : 0, tx.now, agentId)).changes > 0;
}

/** What every machine reading the room sees of an approval the agent waits for: the tool and whose answer, never the input. */
export interface ApprovalWait {
  readonly tool: string;
  readonly person: string;
  readonly since: string;
}

/** It waits for `wait` now (null: for no approval); false when the row is gone. */
export async function setManagedMemberApprovalWait(tx: Tx, agentId: string, wait: ApprovalWait | null): Promise<boolean> {
  const result = await tx.run(
    'UPDATE managed_members SET approval_tool = ?, approval_person = ?, approval_since = ?, updated_at = ? WHERE agent_id = ?',
    wait?.tool ?? null, wait?.person ?? null, wait?.since ?? null, tx.now, agentId,
  );
  return result.changes > 0;
}

export async function deleteManagedMember(tx: Tx, agentId: string): Promise<void> {
  await tx.run('DELETE FROM managed_members WHERE agent_id = ?', agentId);
}

const MEMBER_SELECT = 'SELECT m.*, (SELECT h.heard_at FROM app_hosts h WHERE h.host_id = m.host_id) AS host_heard_at FROM managed_members m';

/** The worker's row when it is a managed agent of the room (run by this app or another of the team). */
export function getManagedMember(q: Queryable, workerId: string, roomId: string): Promise<ManagedMemberRow | undefined> {
  return q.get<ManagedMemberRow>(`${MEMBER_SELECT} WHERE m.room_id = ? AND m.worker_id = ?`, roomId, workerId);
}

/** Workers of the room's managed agents, whichever machine runs them: members of the room between their turns too. */
export async function managedWorkerIdsInRoom(q: Queryable, roomId: string): Promise<string[]> {
  return (await q.all<{ worker_id: string }>('SELECT worker_id FROM managed_members WHERE room_id = ? LIMIT ?', roomId, MAX_AGENTS)).map((r) => r.worker_id);
}
