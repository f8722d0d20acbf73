// Worker and agent-session rows: the only SQL for the `workers` and `agent_sessions`
// tables. The unique index agent_sessions_room_name enforces one normalised name per
// room; inserts and renames report a clash on it instead of throwing.
import type { Db } from './database';
import type { Tx } from './store';

export interface WorkerRow {
  worker_id: string;
  registration_key_hash: string;
  display_name: string;
  agent_key: string;
  owner_label: string;
  ide_label: string;
  runtime: string;
  created_at: string;
}

export type SessionKind = 'worker' | 'controller';
export type SessionStatus = 'idle' | 'working' | 'reviewing' | 'blocked';
export type EndedBy = 'disconnect' | 'person' | 'connection_closed';

export interface SessionRow {
  session_id: string;
  room_id: string;
  worker_id: string | null;
  session_kind: SessionKind;
  display_name: string;
  name_key: string;
  actor_label: string;
  agent_key: string;
  owner_label: string;
  ide_label: string;
  runtime: string;
  repo_branch: string | null;
  status: SessionStatus;
  status_text: string;
  reasoning_json: string | null;
  created_at: string;
  updated_at: string;
  last_seen_at: string;
  ended_at: string | null;
  ended_by: EndedBy | null;
}

/** A roster row: a session plus its room's display name. */
export interface RosterRow extends SessionRow {
  room_name: string;
}

const MAX_ROOM_SESSIONS = 1_000;
const MAX_ROSTER_ROWS = 1_000;
const MAX_HELD_LEASES = 10_000;

function isNameClash(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' && (e.message ?? '').includes('agent_sessions.name_key');
}

// Workers

export function findWorkerByKeyHash(db: Db, registrationKeyHash: string): WorkerRow | undefined {
  return db.prepare('SELECT * FROM workers WHERE registration_key_hash = ?').get(registrationKeyHash) as WorkerRow | undefined;
}

export function getWorkerRow(db: Db, workerId: string): WorkerRow | undefined {
  return db.prepare('SELECT * FROM workers WHERE worker_id = ?').get(workerId) as WorkerRow | undefined;
}

export function insertWorkerRow(tx: Tx, worker: WorkerRow): void {
  tx.db
    .prepare(
      `INSERT INTO workers (worker_id, registration_key_hash, display_name, agent_key, owner_label, ide_label, runtime, created_at)
       VALUES (@worker_id, @registration_key_hash, @display_name, @agent_key, @owner_label, @ide_label, @runtime, @created_at)`,
    )
    .run(worker);
}

/** Every room where the worker has a session, ended or not, oldest first. */
export function listWorkerRoomIds(db: Db, workerId: string): string[] {
  const rows = db
    .prepare('SELECT room_id FROM agent_sessions WHERE worker_id = ? ORDER BY created_at, room_id LIMIT ?')
    .all(workerId, MAX_ROOM_SESSIONS) as Array<{ room_id: string }>;
  return rows.map((r) => r.room_id);
}

// Sessions

export function getSessionRow(db: Db, sessionId: string): SessionRow | undefined {
  return db.prepare('SELECT * FROM agent_sessions WHERE session_id = ?').get(sessionId) as SessionRow | undefined;
}

export type NewSessionRow = Omit<SessionRow, 'reasoning_json' | 'ended_at' | 'ended_by'>;

/** Inserts a session; 'name_taken' when its name_key clashes in the room (nothing stored). */
export function insertSessionRow(tx: Tx, row: NewSessionRow): 'inserted' | 'name_taken' {
  try {
    tx.db
      .prepare(
        `INSERT INTO agent_sessions (session_id, room_id, worker_id, session_kind, display_name, name_key, actor_label,
           agent_key, owner_label, ide_label, runtime, repo_branch, status, status_text, created_at, updated_at, last_seen_at)
         VALUES (@session_id, @room_id, @worker_id, @session_kind, @display_name, @name_key, @actor_label,
           @agent_key, @owner_label, @ide_label, @runtime, @repo_branch, @status, @status_text, @created_at, @updated_at, @last_seen_at)`,
      )
      .run(row);
    return 'inserted';
  } catch (error) {
    if (isNameClash(error)) return 'name_taken';
    throw error;
  }
}

/** Clears the end, touches last_seen_at and sets the reconnect presence; keeps repo_branch when none is given. */
export function reviveSessionRow(tx: Tx, sessionId: string, repoBranch: string | null | undefined, statusText: string): void {
  tx.db
    .prepare(
      `UPDATE agent_sessions SET ended_at = NULL, ended_by = NULL, status = 'idle', status_text = ?,
         repo_branch = CASE WHEN ? THEN ? ELSE repo_branch END, updated_at = ?, last_seen_at = ?
       WHERE session_id = ?`,
    )
    .run(statusText, repoBranch === undefined ? 0 : 1, repoBranch ?? null, tx.now, tx.now, sessionId);
}

export function endSessionRow(tx: Tx, sessionId: string, endedBy: EndedBy): void {
  tx.db
    .prepare('UPDATE agent_sessions SET ended_at = ?, ended_by = ?, updated_at = ? WHERE session_id = ? AND ended_at IS NULL')
    .run(tx.now, endedBy, tx.now, sessionId);
}

/** Renames a session; 'name_taken' when the new name_key clashes in the room (nothing changed). */
export function renameSessionRow(
  tx: Tx,
  sessionId: string,
  name: { displayName: string; nameKey: string; actorLabel: string },
): 'renamed' | 'name_taken' {
  try {
    tx.db
      .prepare('UPDATE agent_sessions SET display_name = ?, name_key = ?, actor_label = ?, updated_at = ? WHERE session_id = ?')
      .run(name.displayName, name.nameKey, name.actorLabel, tx.now, sessionId);
    return 'renamed';
  } catch (error) {
    if (isNameClash(error)) return 'name_taken';
    throw error;
  }
}

/** Sets presence; returns the session's room, or null for an unknown session. */
export function updatePresenceRow(tx: Tx, sessionId: string, status: SessionStatus, statusText: string): string | null {
  const row = tx.db
    .prepare(
      'UPDATE agent_sessions SET status = ?, status_text = ?, updated_at = ?, last_seen_at = ? WHERE session_id = ? RETURNING room_id',
    )
    .get(status, statusText, tx.now, tx.now, sessionId) as { room_id: string } | undefined;
  return row?.room_id ?? null;
}

/**
 * Live sessions of the room whose presence is about `word` (a task id such as task_7, as
 * a whole word): their status goes back to idle with `idleText`. Unlike updatePresenceRow it
 * leaves last_seen_at alone: someone else's action, not the agent, changed it. Returns their ids.
 */
export function resetPresenceNaming(tx: Tx, roomId: string, word: string, idleText: string): string[] {
  const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = tx.db
    .prepare("SELECT session_id, status_text FROM agent_sessions WHERE room_id = ? AND ended_at IS NULL AND status != 'idle' AND status_text LIKE ? ESCAPE '\\'")
    .all(roomId, like) as Array<{ session_id: string; status_text: string }>;
  const whole = new RegExp(`(^|[^\\w])${word}(?![\\w])`);
  const ids = rows.filter((row) => whole.test(row.status_text)).map((row) => row.session_id);
  const update = tx.db.prepare("UPDATE agent_sessions SET status = 'idle', status_text = ?, updated_at = ? WHERE session_id = ?");
  for (const id of ids) update.run(idleText, tx.now, id);
  return ids;
}

/** Stores the latest reasoning; returns the session's room, or null for an unknown session. */
export function updateReasoningRow(tx: Tx, sessionId: string, reasoningJson: string): string | null {
  const row = tx.db
    .prepare('UPDATE agent_sessions SET reasoning_json = ?, updated_at = ?, last_seen_at = ? WHERE session_id = ? RETURNING room_id')
    .get(reasoningJson, tx.now, tx.now, sessionId) as { room_id: string } | undefined;
  return row?.room_id ?? null;
}

export function touchSessionLastSeen(tx: Tx, sessionId: string): void {
  tx.db.prepare('UPDATE agent_sessions SET last_seen_at = ? WHERE session_id = ?').run(tx.now, sessionId);
}

/** Live durable worker sessions in a room with this normalised name (recovery, name notice). */
export function findLiveWorkerSessionsByNameKey(db: Db, roomId: string, nameKey: string): SessionRow[] {
  return db
    .prepare(
      `SELECT * FROM agent_sessions
       WHERE room_id = ? AND name_key = ? AND worker_id IS NOT NULL AND ended_at IS NULL
       ORDER BY created_at, session_id LIMIT ?`,
    )
    .all(roomId, nameKey, MAX_ROOM_SESSIONS) as SessionRow[];
}

/** Every session of a room, controllers and ended ones included, oldest first. */
export function listRoomSessionRows(db: Db, roomId: string): SessionRow[] {
  return db
    .prepare('SELECT * FROM agent_sessions WHERE room_id = ? ORDER BY created_at, session_id LIMIT ?')
    .all(roomId, MAX_ROOM_SESSIONS) as SessionRow[];
}

/** Worker-kind sessions (never controllers) of one room or all rooms: live first, then most recently seen. */
export function listRosterRows(db: Db, roomId: string | null): RosterRow[] {
  return db
    .prepare(
      `SELECT s.*, r.display_name AS room_name FROM agent_sessions s JOIN rooms r ON r.room_id = s.room_id
       WHERE s.session_kind = 'worker' AND (? IS NULL OR s.room_id = ?)
       ORDER BY s.ended_at IS NOT NULL, s.last_seen_at DESC, s.session_id LIMIT ?`,
    )
    .all(roomId, roomId, MAX_ROSTER_ROWS) as RosterRow[];
}

/** Active work leases (room, holder agent key, task number) in one room or all rooms. */
export function listActiveWorkLeaseHolders(
  db: Db,
  roomId: string | null,
): Array<{ room_id: string; agent_key: string; task_number: number }> {
  return db
    .prepare(
      `SELECT room_id, agent_key, task_number FROM task_leases
       WHERE kind = 'work' AND status = 'active' AND agent_key IS NOT NULL AND (? IS NULL OR room_id = ?)
       ORDER BY room_id, task_number LIMIT ?`,
    )
    .all(roomId, roomId, MAX_HELD_LEASES) as Array<{ room_id: string; agent_key: string; task_number: number }>;
}
