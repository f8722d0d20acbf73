// Automations, their runs and the turns each run took: the only SQL for those tables.
// Portable SQL; every list is bounded.
import type { Queryable, Tx } from './port';

export type AutomationStateRow = 'active' | 'paused';
export type RunCauseRow = 'schedule' | 'catch_up' | 'event' | 'run_now';
export type RunStatusRow = 'running' | 'done' | 'failed' | 'stopped' | 'skipped' | 'missed';

export interface AutomationRow {
  automation_id: string;
  name: string;
  place: string;
  room_id: string;
  target_kind: 'agent' | 'mention';
  agent_id: string | null;
  mention: string | null;
  instructions: string;
  /** JSON: the trigger (shared/model/automations.ts AutomationTrigger). */
  trigger_json: string;
  /** JSON: the run limits (RunLimits). */
  limits_json: string;
  desired_state: AutomationStateRow;
  /** Interval schedules count from here (creation, an edit, or Resume). */
  anchor_at: string;
  /** The latest scheduled time accounted for: run, skipped or missed. */
  last_due_at: string | null;
  /** The latest streak of missed runs, shown until a run on time. */
  missed_count: number;
  missed_last_at: string | null;
  /** JSON: what the GitHub triggers last saw of each linked pull request. */
  seen_json: string | null;
  next_run_number: number;
  created_at: string;
  updated_at: string;
}

export interface RunRow {
  automation_id: string;
  number: number;
  cause: RunCauseRow;
  cause_text: string;
  status: RunStatusRow;
  reason: string | null;
  missed: number;
  due_at: string | null;
  agent_id: string | null;
  /** The room's newest message number when the run started: its reply comes after it. */
  from_number: number | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  reply_number: number | null;
  branch: string | null;
  /** JSON: the fresh worktree of this run (AgentWorkspace), while it exists. */
  worktree_json: string | null;
  started_at: string;
  ended_at: string | null;
}

const MAX_AUTOMATIONS = 1_000;
const MAX_RUNS_LISTED = 100;
/** Runs kept per automation (the newest). */
export const KEEP_RUNS = 200;

export type NewAutomationRow = Omit<AutomationRow, 'last_due_at' | 'missed_count' | 'missed_last_at' | 'seen_json' | 'next_run_number' | 'updated_at'>;

export async function insertAutomationRow(tx: Tx, row: NewAutomationRow): Promise<void> {
  await tx.run(
    `INSERT INTO automations (automation_id, name, place, room_id, target_kind, agent_id, mention, instructions, trigger_json,
         limits_json, desired_state, anchor_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.automation_id, row.name, row.place, row.room_id, row.target_kind, row.agent_id, row.mention, row.instructions,
    row.trigger_json, row.limits_json, row.desired_state, row.anchor_at, row.created_at, row.created_at,
  );
}

export function getAutomationRow(q: Queryable, automationId: string): Promise<AutomationRow | undefined> {
  return q.get<AutomationRow>('SELECT * FROM automations WHERE automation_id = ?', automationId);
}

export function listAutomationRows(q: Queryable): Promise<AutomationRow[]> {
  return q.all<AutomationRow>('SELECT * FROM automations ORDER BY created_at, automation_id LIMIT ?', MAX_AUTOMATIONS);
}

export function countAutomationRows(q: Queryable): Promise<number> {
  return q.get<{ n: number }>('SELECT COUNT(*) AS n FROM automations').then((r) => r!.n);
}

type AutomationFields = Partial<
  Pick<
    AutomationRow,
    'name' | 'target_kind' | 'agent_id' | 'mention' | 'instructions' | 'trigger_json' | 'limits_json' | 'desired_state' | 'anchor_at' | 'last_due_at' | 'missed_count' | 'missed_last_at' | 'seen_json'
  >
>;

/** Only the given fields change. */
export async function updateAutomationRow(tx: Tx, automationId: string, fields: AutomationFields): Promise<void> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  await tx.run(
    `UPDATE automations SET ${entries.map(([k]) => `${k} = ?`).join(', ')}, updated_at = ? WHERE automation_id = ?`,
    ...entries.map(([, v]) => v), tx.now, automationId,
  );
}

export async function deleteAutomationRow(tx: Tx, automationId: string): Promise<boolean> {
  await tx.run('DELETE FROM automation_run_turns WHERE automation_id = ?', automationId);
  await tx.run('DELETE FROM automation_runs WHERE automation_id = ?', automationId);
  return (await tx.run('DELETE FROM automations WHERE automation_id = ?', automationId)).changes > 0;
}

export type NewRunRow = Pick<RunRow, 'cause' | 'cause_text' | 'status' | 'reason' | 'missed' | 'due_at' | 'agent_id' | 'from_number' | 'started_at' | 'ended_at'>;

/** Records a run (or a skipped run, or missed ones) and returns its number; the oldest beyond KEEP_RUNS go. */
export async function insertRunRow(tx: Tx, automationId: string, run: NewRunRow): Promise<number> {
  const taken = await tx.get<{ n: number }>(
    'UPDATE automations SET next_run_number = next_run_number + 1 WHERE automation_id = ? RETURNING next_run_number - 1 AS n',
    automationId,
  );
  if (!taken) throw new Error(`automation ${automationId} does not exist`);
  await tx.run(
    `INSERT INTO automation_runs (automation_id, number, cause, cause_text, status, reason, missed, due_at, agent_id, from_number, started_at, ended_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    automationId, taken.n, run.cause, run.cause_text, run.status, run.reason, run.missed, run.due_at, run.agent_id, run.from_number, run.started_at, run.ended_at,
  );
  await tx.run('DELETE FROM automation_run_turns WHERE automation_id = ? AND run_number <= ?', automationId, taken.n - KEEP_RUNS);
  await tx.run('DELETE FROM automation_runs WHERE automation_id = ? AND number <= ?', automationId, taken.n - KEEP_RUNS);
  return taken.n;
}

export function getRunRow(q: Queryable, automationId: string, number: number): Promise<RunRow | undefined> {
  return q.get<RunRow>('SELECT * FROM automation_runs WHERE automation_id = ? AND number = ?', automationId, number);
}

/** The newest runs, newest first. */
export function listRunRows(q: Queryable, automationId: string, limit: number): Promise<RunRow[]> {
  return q.all<RunRow>('SELECT * FROM automation_runs WHERE automation_id = ? ORDER BY number DESC LIMIT ?', automationId, Math.min(limit, MAX_RUNS_LISTED));
}

/** The automation's run that is going now, if any (one at a time). */
export function openRunRow(q: Queryable, automationId: string): Promise<RunRow | undefined> {
  return q.get<RunRow>("SELECT * FROM automation_runs WHERE automation_id = ? AND status = 'running' ORDER BY number DESC LIMIT 1", automationId);
}

/** Every run going now, across automations (start-up). */
export function listOpenRunRows(q: Queryable): Promise<RunRow[]> {
  return q.all<RunRow>("SELECT * FROM automation_runs WHERE status = 'running' LIMIT ?", MAX_AUTOMATIONS);
}

type RunFields = Partial<Pick<RunRow, 'status' | 'reason' | 'input_tokens' | 'output_tokens' | 'cost_usd' | 'reply_number' | 'branch' | 'worktree_json' | 'ended_at'>>;

export async function updateRunRow(tx: Tx, automationId: string, number: number, fields: RunFields): Promise<void> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  await tx.run(
    `UPDATE automation_runs SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE automation_id = ? AND number = ?`,
    ...entries.map(([, v]) => v), automationId, number,
  );
}

export async function linkRunTurn(tx: Tx, automationId: string, run: number, agentId: string, turn: number): Promise<void> {
  await tx.run(
    'INSERT INTO automation_run_turns (agent_id, turn_number, automation_id, run_number) VALUES (?, ?, ?, ?) ON CONFLICT (agent_id, turn_number) DO NOTHING',
    agentId, turn, automationId, run,
  );
}

/** The agent's turns a run took, oldest first. */
export async function runTurnNumbers(q: Queryable, automationId: string, run: number): Promise<number[]> {
  const rows = await q.all<{ turn_number: number }>(
    'SELECT turn_number FROM automation_run_turns WHERE automation_id = ? AND run_number = ? ORDER BY turn_number LIMIT ?',
    automationId, run, MAX_RUNS_LISTED,
  );
  return rows.map((r) => r.turn_number);
}

export interface TurnTag {
  turn_number: number;
  automation_id: string;
  run_number: number;
  name: string;
}

/** Which of the agent's turns (from `fromTurn` on) an automation's run took, with the automation's name. */
export function turnTagsOfAgent(q: Queryable, agentId: string, fromTurn: number): Promise<TurnTag[]> {
  return q.all<TurnTag>(
    `SELECT t.turn_number, t.automation_id, t.run_number, a.name
       FROM automation_run_turns t JOIN automations a ON a.automation_id = t.automation_id
      WHERE t.agent_id = ? AND t.turn_number >= ? ORDER BY t.turn_number LIMIT ?`,
    agentId, fromTurn, MAX_RUNS_LISTED,
  );
}
