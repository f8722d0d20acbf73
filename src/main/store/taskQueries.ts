// SQL for tasks, their work and review leases, their status history, and the few reads of
// messages and sessions that task rules need (source message, handoff targets).
import type { Db } from './database';
import type { Tx } from './store';

export type TaskStatusValue =
  | 'proposed' | 'accepted' | 'assigned' | 'in_progress' | 'blocked' | 'in_review' | 'merged' | 'done' | 'cancelled';

export interface TaskRow {
  room_id: string;
  number: number;
  status: TaskStatusValue;
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
  from_status: TaskStatusValue | null;
  to_status: TaskStatusValue;
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

export function insertTaskRow(
  tx: Tx,
  t: Pick<TaskRow, 'room_id' | 'number' | 'status' | 'title' | 'description' | 'created_by' | 'created_by_agent_key' | 'source_message_number'>,
): void {
  tx.db
    .prepare(
      `INSERT INTO tasks (room_id, number, status, title, description, created_by, created_by_agent_key,
         source_message_number, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(t.room_id, t.number, t.status, t.title, t.description, t.created_by, t.created_by_agent_key,
      t.source_message_number, tx.now, tx.now);
}

export function getTaskRow(db: Db, roomId: string, number: number): TaskRow | undefined {
  return db.prepare('SELECT * FROM tasks WHERE room_id = ? AND number = ?').get(roomId, number) as TaskRow | undefined;
}

export function listTaskRows(db: Db, roomId: string, filter: { status?: TaskStatusValue; openOnly: boolean }): TaskRow[] {
  if (filter.status) {
    return db
      .prepare('SELECT * FROM tasks WHERE room_id = ? AND status = ? ORDER BY number LIMIT ?')
      .all(roomId, filter.status, BOARD_LIMIT) as TaskRow[];
  }
  const open = filter.openOnly ? "AND status NOT IN ('done','cancelled')" : '';
  return db
    .prepare(`SELECT * FROM tasks WHERE room_id = ? ${open} ORDER BY number LIMIT ?`)
    .all(roomId, BOARD_LIMIT) as TaskRow[];
}

export function setTaskStatus(tx: Tx, roomId: string, number: number, status: TaskStatusValue): void {
  tx.db.prepare('UPDATE tasks SET status = ?, updated_at = ? WHERE room_id = ? AND number = ?').run(status, tx.now, roomId, number);
}

/** Sets (or, with null, clears) the assignee fields; a new holder also becomes the last holder. */
export function setTaskAssignee(tx: Tx, roomId: string, number: number, holder: Holder | null): void {
  if (holder) {
    tx.db
      .prepare(
        `UPDATE tasks SET assignee = ?, assignee_agent_key = ?, assignee_session_id = ?,
           last_holder_agent_key = COALESCE(?, last_holder_agent_key), updated_at = ? WHERE room_id = ? AND number = ?`,
      )
      .run(holder.label, holder.agentKey, holder.sessionId, holder.agentKey, tx.now, roomId, number);
  } else {
    tx.db
      .prepare(
        `UPDATE tasks SET assignee = NULL, assignee_agent_key = NULL, assignee_session_id = NULL, updated_at = ?
         WHERE room_id = ? AND number = ?`,
      )
      .run(tx.now, roomId, number);
  }
}

export function setTaskPrUrl(tx: Tx, roomId: string, number: number, prUrl: string | null): void {
  tx.db.prepare('UPDATE tasks SET pr_url = ?, updated_at = ? WHERE room_id = ? AND number = ?').run(prUrl, tx.now, roomId, number);
}

export function setTaskArtifacts(tx: Tx, roomId: string, number: number, json: string): void {
  tx.db
    .prepare('UPDATE tasks SET workflow_artifacts_json = ?, updated_at = ? WHERE room_id = ? AND number = ?')
    .run(json, tx.now, roomId, number);
}

// ---- status history ----

export function insertTaskEvent(
  tx: Tx, roomId: string, number: number, from: TaskStatusValue | null, to: TaskStatusValue, actorLabel: string,
): void {
  tx.db
    .prepare(
      `INSERT INTO task_events (room_id, task_number, seq, from_status, to_status, actor_label, created_at)
       VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM task_events WHERE room_id = ? AND task_number = ?), ?, ?, ?, ?)`,
    )
    .run(roomId, number, roomId, number, from, to, actorLabel, tx.now);
}

export function listTaskEventRows(db: Db, roomId: string, number: number): TaskEventRow[] {
  return db
    .prepare(
      `SELECT seq, from_status, to_status, actor_label, created_at FROM task_events
       WHERE room_id = ? AND task_number = ? ORDER BY seq LIMIT ?`,
    )
    .all(roomId, number, HISTORY_LIMIT) as TaskEventRow[];
}

// ---- leases ----

export function insertLeaseRow(tx: Tx, lease: Omit<LeaseRow, 'status' | 'created_at' | 'updated_at' | 'ended_at'>): void {
  tx.db
    .prepare(
      `INSERT INTO task_leases (lease_id, room_id, task_number, kind, holder_label, agent_key, session_id, status,
         created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?, ?)`,
    )
    .run(lease.lease_id, lease.room_id, lease.task_number, lease.kind, lease.holder_label, lease.agent_key,
      lease.session_id, tx.now, tx.now);
}

export function getLeaseRow(db: Db, leaseId: string): LeaseRow | undefined {
  return db.prepare('SELECT * FROM task_leases WHERE lease_id = ?').get(leaseId) as LeaseRow | undefined;
}

export function getActiveLeaseRow(db: Db, roomId: string, number: number, kind: LeaseKind): LeaseRow | undefined {
  return db
    .prepare("SELECT * FROM task_leases WHERE room_id = ? AND task_number = ? AND kind = ? AND status = 'active'")
    .get(roomId, number, kind) as LeaseRow | undefined;
}

/** Active leases of a task, work before review. */
export function listActiveLeaseRows(db: Db, roomId: string, number: number): LeaseRow[] {
  return db
    .prepare(
      `SELECT * FROM task_leases WHERE room_id = ? AND task_number = ? AND status = 'active'
       ORDER BY CASE kind WHEN 'work' THEN 0 ELSE 1 END LIMIT 2`,
    )
    .all(roomId, number) as LeaseRow[];
}

/** Marks a lease as used again (a repeat claim keeps its id); returns the row. */
export function touchLeaseRow(tx: Tx, leaseId: string): LeaseRow {
  return tx.db.prepare('UPDATE task_leases SET updated_at = ? WHERE lease_id = ? RETURNING *').get(tx.now, leaseId) as LeaseRow;
}

/** Ends a lease; returns the row as it now stands. */
export function endLeaseRow(tx: Tx, leaseId: string, status: Exclude<LeaseStatus, 'active'>): LeaseRow {
  return tx.db
    .prepare('UPDATE task_leases SET status = ?, updated_at = ?, ended_at = ? WHERE lease_id = ? RETURNING *')
    .get(status, tx.now, tx.now, leaseId) as LeaseRow;
}

/** Active leases held through one session, in task order (work before review). */
export function listActiveLeaseRowsOfSession(db: Db, sessionId: string, roomId?: string): LeaseRow[] {
  return db
    .prepare(
      `SELECT * FROM task_leases WHERE session_id = ? AND status = 'active' AND (? IS NULL OR room_id = ?)
       ORDER BY room_id, task_number, CASE kind WHEN 'work' THEN 0 ELSE 1 END LIMIT ?`,
    )
    .all(sessionId, roomId ?? null, roomId ?? null, LEASES_PER_SESSION_LIMIT) as LeaseRow[];
}

// ---- reads outside tasks that task rules need ----

export function messageExists(db: Db, roomId: string, number: number): boolean {
  return db.prepare('SELECT 1 FROM messages WHERE room_id = ? AND number = ?').get(roomId, number) !== undefined;
}

/** Live (not ended) worker sessions of an agent key in a room: the possible handoff targets. */
export function listLiveWorkerSessions(db: Db, roomId: string, agentKey: string): LiveSessionRow[] {
  return db
    .prepare(
      `SELECT session_id, display_name, actor_label, agent_key FROM agent_sessions
       WHERE room_id = ? AND agent_key = ? AND session_kind = 'worker' AND ended_at IS NULL
       ORDER BY created_at, session_id LIMIT 100`,
    )
    .all(roomId, agentKey) as LiveSessionRow[];
}

export function getSessionDisplayName(db: Db, sessionId: string): string | undefined {
  const row = db.prepare('SELECT display_name FROM agent_sessions WHERE session_id = ?').get(sessionId) as
    | { display_name: string }
    | undefined;
  return row?.display_name;
}
