// SQL for tasks, their work and review leases, their status history, and the few reads of
// messages and sessions that task rules need (source message, handoff targets).
import { CLOSED_STATUSES, type TaskStatus } from '../../shared/taskTransitions';
import type { Queryable, Tx } from './port';

export interface TaskRow {
  room_id: string;
  number: number;
  status: TaskStatus;
  title: string;
  description: string | null;
  created_by: string;
  created_by_agent_key: string | null;
  source_message_number: number | null;
  assignee: string | null;
  assignee_agent_key: string | null;
  assignee_session_id: string | null;
  last_holder_agent_key: string | null;
  pr_url: string | null;
  workflow_artifacts_json: string;
  created_at: string;
  updated_at: string;
}

export type LeaseKind = 'work' | 'review';
export type LeaseStatus = 'active' | 'released' | 'handed_off' | 'completed';

export interface LeaseRow {
  lease_id: string;
  room_id: string;
  task_number: number;
  kind: LeaseKind;
  holder_label: string;
  agent_key: string | null;
  session_id: string | null;
  status: LeaseStatus;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}

export interface TaskEventRow {
  seq: number;
  from_status: TaskStatus | null;
  to_status: TaskStatus;
  actor_label: string;
  created_at: string;
}

/** The holder written into a task's assignee fields and its work lease. */
export interface Holder {
  label: string;
  agentKey: string | null;
  sessionId: string | null;
}

export interface LiveSessionRow {
  session_id: string;
  display_name: string;
  actor_label: string;
  agent_key: string;
}

// A room's board is read whole; this bound only guards against a runaway query.
const BOARD_LIMIT = 10_000;
const LEASES_PER_SESSION_LIMIT = 1_000;
const HISTORY_LIMIT = 1_000;

// ---- tasks ----

export async function insertTaskRow(
  tx: Tx,
  t: Pick<TaskRow,
  'room_id' | 'number' | 'status' | 'title' | 'description' | 'created_by' | 'created_by_agent_key' | 'source_message_number'>,
): Promise<void> {
  await tx.run(
    `INSERT INTO tasks (room_id, number, status, title, description, created_by, created_by_agent_key,
         source_message_number, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    t.room_id, t.number, t.status, t.title, t.description, t.created_by, t.created_by_agent_key,
    t.source_message_number, tx.now, tx.now,
  );
}

export function getTaskRow(q: Queryable, roomId: string, number: number): Promise<TaskRow | undefined> {
  return q.get<TaskRow>('SELECT * FROM tasks WHERE room_id = ? AND number = ?', roomId, number);
}

export function listTaskRows(q: Queryable, roomId: string, filter: { status?: TaskStatus; openOnly: boolean }): Promise<TaskRow[]> {
  if (filter.status) {
    return q.all<TaskRow>(
      'SELECT * FROM tasks WHERE room_id = ? AND status = ? ORDER BY number LIMIT ?',
      roomId, filter.status, BOARD_LIMIT,
    );
  }
  if (!filter.openOnly) return q.all<TaskRow>('SELECT * FROM tasks WHERE room_id = ? ORDER BY number LIMIT ?', roomId, BOARD_LIMIT);
  return q.all<TaskRow>(
    `SELECT * FROM tasks WHERE room_id = ? AND status NOT IN (${CLOSED_STATUSES.map(() => '?').join(', ')}) ORDER BY number LIMIT ?`,
    roomId, ...CLOSED_STATUSES, BOARD_LIMIT,
  );
}

export async function setTaskStatus(tx: Tx, roomId: string, number: number, status: TaskStatus): Promise<void> {
  await tx.run(
    'UPDATE tasks SET status = ?, updated_at = ? WHERE room_id = ? AND number = ?',
    status, tx.now, roomId, number,
  );
}

/** Sets (or, with null, clears) the assignee fields; a new holder also becomes the last holder. */
export async function setTaskAssignee(tx: Tx, roomId: string, number: number, holder: Holder | null): Promise<void> {
  if (holder) {
    await tx.run(
      `UPDATE tasks SET assignee = ?, assignee_agent_key = ?, assignee_session_id = ?,
           last_holder_agent_key = COALESCE(?, last_holder_agent_key), updated_at = ? WHERE room_id = ? AND number = ?`,
      holder.label, holder.agentKey, holder.sessionId, holder.agentKey, tx.now, roomId, number,
    );
  } else {
    await tx.run(
      `UPDATE tasks SET assignee = NULL, assignee_agent_key = NULL, assignee_session_id = NULL, updated_at = ?
         WHERE room_id = ? AND number = ?`,
      tx.now, roomId, number,
    );
  }
}

export async function setTaskPrUrl(tx: Tx, roomId: string, number: number, prUrl: string | null): Promise<void> {
  await tx.run(
    'UPDATE tasks SET pr_url = ?, updated_at = ? WHERE room_id = ? AND number = ?',
    prUrl, tx.now, roomId, number,
  );
}

export async function setTaskArtifacts(tx: Tx, roomId: string, number: number, json: string): Promise<void> {
  await tx.run(
    'UPDATE tasks SET workflow_artifacts_json = ?, updated_at = ? WHERE room_id = ? AND number = ?',
    json, tx.now, roomId, number,
  );
}

// ---- status history ----

export async function insertTaskEvent(
  tx: Tx, roomId: string, number: number, from: TaskStatus | null, to: TaskStatus, actorLabel: string,
): Promise<void> {
  await tx.run(
    `INSERT INTO task_events (room_id, task_number, seq, from_status, to_status, actor_label, created_at)
       VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM task_events WHERE room_id = ? AND task_number = ?), ?, ?, ?, ?)`,
    roomId, number, roomId, number, from, to, actorLabel, tx.now,
  );
}

export function listTaskEventRows(q: Queryable, roomId: string, number: number): Promise<TaskEventRow[]> {
  return q.all<TaskEventRow>(
    `SELECT seq, from_status, to_status, actor_label, created_at FROM task_events
       WHERE room_id = ? AND task_number = ? ORDER BY seq LIMIT ?`,
    roomId, number, HISTORY_LIMIT,
  );
}

// ---- leases ----

export async function insertLeaseRow(tx: Tx, lease: Omit<LeaseRow, 'status' | 'created_at' | 'updated_at' | 'ended_at'>): Promise<void> {
  await tx.run(
    `INSERT INTO task_leases (lease_id, room_id, task_number, kind, holder_label, agent_key, session_id, status,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
    lease.lease_id, lease.room_id, lease.task_number, lease.kind, lease.holder_label, lease.agent_key,
    lease.session_id, tx.now, tx.now,
  );
}

export function getLeaseRow(q: Queryable, leaseId: string): Promise<LeaseRow | undefined> {
  return q.get<LeaseRow>('SELECT * FROM task_leases WHERE lease_id = ?', leaseId);
}

export function getActiveLeaseRow(q: Queryable, roomId: string, number: number, kind: LeaseKind): Promise<LeaseRow | undefined> {
  return q.get<LeaseRow>(
    "SELECT * FROM task_leases WHERE room_id = ? AND task_number = ? AND kind = ? AND status = 'active'",
    roomId, number, kind,
  );
}

/** Active leases of a task, work before review. */
export function listActiveLeaseRows(q: Queryable, roomId: string, number: number): Promise<LeaseRow[]> {
  return q.all<LeaseRow>(
    `SELECT * FROM task_leases WHERE room_id = ? AND task_number = ? AND status = 'active'
       ORDER BY CASE kind WHEN 'work' THEN 0 ELSE 1 END LIMIT 2`,
    roomId, number,
  );
}

/** Active leases of every task of a room (a board in one query), by task, work before review. */
export function listActiveLeaseRowsOfRoom(q: Queryable, roomId: string): Promise<LeaseRow[]> {
  return q.all<LeaseRow>(
    `SELECT * FROM task_leases WHERE room_id = ? AND status = 'active'
     ORDER BY task_number, CASE kind WHEN 'work' THEN 0 ELSE 1 END LIMIT ?`,
    roomId, 2 * BOARD_LIMIT,
  );
}

/** Marks a lease as used again (a repeat claim keeps its id); returns the row. */
export async function touchLeaseRow(tx: Tx, leaseId: string): Promise<LeaseRow> {
  const row = await tx.get<LeaseRow>('UPDATE task_leases SET updated_at = ? WHERE lease_id = ? RETURNING *', tx.now, leaseId);
  return row!;
}

/** Ends a lease; returns the row as it now stands. */
export async function endLeaseRow(tx: Tx, leaseId: string, status: Exclude<LeaseStatus, 'active'>): Promise<LeaseRow> {
  const row = await tx.get<LeaseRow>(
    'UPDATE task_leases SET status = ?, updated_at = ?, ended_at = ? WHERE lease_id = ? RETURNING *',
    status, tx.now, tx.now, leaseId,
  );
  return row!;
}

/** Active leases held through one session, in task order (work before review). */
export function listActiveLeaseRowsOfSession(q: Queryable, sessionId: string, roomId?: string): Promise<LeaseRow[]> {
  return q.all<LeaseRow>(
    `SELECT * FROM task_leases WHERE session_id = ? AND status = 'active' AND (CAST(? AS TEXT) IS NULL OR room_id = ?)
       ORDER BY room_id, task_number, CASE kind WHEN 'work' THEN 0 ELSE 1 END LIMIT ?`,
    sessionId, roomId ?? null, roomId ?? null, LEASES_PER_SESSION_LIMIT,
  );
}

// ---- reads outside tasks that task rules need ----

export async function messageExists(q: Queryable, roomId: string, number: number): Promise<boolean> {
  return await q.get('SELECT 1 FROM messages WHERE room_id = ? AND number = ?', roomId, number) !== undefined;
}

/** Live (not ended) worker sessions of an agent key in a room: the possible handoff targets. */
export function listLiveWorkerSessions(q: Queryable, roomId: string, agentKey: string): Promise<LiveSessionRow[]> {
  return q.all<LiveSessionRow>(
    `SELECT session_id, display_name, actor_label, agent_key FROM agent_sessions
       WHERE room_id = ? AND agent_key = ? AND session_kind = 'worker' AND ended_at IS NULL
       ORDER BY created_at, session_id LIMIT 100`,
    roomId, agentKey,
  );
}

export async function getSessionDisplayName(q: Queryable, sessionId: string): Promise<string | undefined> {
  const row = await q.get<{ display_name: string }>(
    'SELECT display_name FROM agent_sessions WHERE session_id = ?',
    sessionId,
  );
  return row?.display_name;
}
