// Worker and agent-session rows: the only SQL for the `workers` and `agent_sessions`
// tables. The unique index agent_sessions_room_name enforces one normalised name per
// room; inserts and renames report a clash on it instead of throwing.
import type { Queryable, Tx } from './port';
import { isUniqueViolation } from './storageErrors';

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
  /** Bumped by every takeover and by a person ending it; fenced writes check it (worker-handles across machines). */
  binding_epoch: number;
  /** The app (host) that holds or last held the session, and its machine's name. */
  host_id: string | null;
  host_label: string | null;
  /** When that app let go of it (its connection closed); null while held. */
  released_at: string | null;
  /** When that app last heartbeat (app_hosts), read with the row. */
  host_heard_at: string | null;
}

/** A roster row: a session plus its room's display name. */
export interface RosterRow extends SessionRow {
  room_name: string;
}

const MAX_ROOM_SESSIONS = 1_000;
const MAX_ROSTER_ROWS = 1_000;
const MAX_HELD_LEASES = 10_000;

const isNameClash = (error: unknown) => isUniqueViolation(error, 'agent_sessions', 'name_key');

/** A session row with its host's last heartbeat. */
const SESSION_SELECT = 'SELECT s.*, (SELECT h.heard_at FROM app_hosts h WHERE h.host_id = s.host_id) AS host_heard_at FROM agent_sessions s';

// Workers

export function findWorkerByKeyHash(q: Queryable, registrationKeyHash: string): Promise<WorkerRow | undefined> {
  return q.get<WorkerRow>('SELECT * FROM workers WHERE registration_key_hash = ?', registrationKeyHash);
}

export function getWorkerRow(q: Queryable, workerId: string): Promise<WorkerRow | undefined> {
  return q.get<WorkerRow>('SELECT * FROM workers WHERE worker_id = ?', workerId);
}

export async function insertWorkerRow(tx: Tx, worker: WorkerRow): Promise<void> {
  await tx.run(
    `INSERT INTO workers (worker_id, registration_key_hash, display_name, agent_key, owner_label, ide_label, runtime, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    worker.worker_id, worker.registration_key_hash, worker.display_name, worker.agent_key, worker.owner_label,
    worker.ide_label, worker.runtime, worker.created_at,
  );
}

/**
 * A worker created in another place joins a room here: the same worker (id, key hash, name,
 * labels) is written into this place's database once.
 */
export async function copyWorkerRow(tx: Tx, worker: WorkerRow): Promise<void> {
  await tx.run(
    `INSERT INTO workers (worker_id, registration_key_hash, display_name, agent_key, owner_label, ide_label, runtime, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    worker.worker_id, worker.registration_key_hash, worker.display_name, worker.agent_key, worker.owner_label,
    worker.ide_label, worker.runtime, worker.created_at,
  );
}

/** Every room where the worker has a session, ended or not, oldest first. */
export async function listWorkerRoomIds(q: Queryable, workerId: string): Promise<string[]> {
  const rows = await q.all<{ room_id: string }>(
    'SELECT room_id FROM agent_sessions WHERE worker_id = ? ORDER BY created_at, room_id LIMIT ?',
    workerId, MAX_ROOM_SESSIONS,
  );
  return rows.map((r) => r.room_id);
}

// Sessions

export function getSessionRow(q: Queryable, sessionId: string): Promise<SessionRow | undefined> {
  return q.get<SessionRow>(`${SESSION_SELECT} WHERE s.session_id = ?`, sessionId);
}

export type NewSessionRow = Omit<
  SessionRow, 'reasoning_json' | 'ended_at' | 'ended_by' | 'binding_epoch' | 'host_id' | 'host_label' | 'released_at' | 'host_heard_at'
>;

/**
 * Inserts a session; 'name_taken' when its name_key clashes in the room (nothing stored). The
 * insert runs in a savepoint, so the write goes on after a clash on both engines.
 */
export async function insertSessionRow(tx: Tx, row: NewSessionRow): Promise<'inserted' | 'name_taken'> {
  try {
    await tx.savepoint(() =>
      tx.run(
        `INSERT INTO agent_sessions (session_id, room_id, worker_id, session_kind, display_name, name_key, actor_label,
           agent_key, owner_label, ide_label, runtime, repo_branch, status, status_text, created_at, updated_at, last_seen_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.session_id, row.room_id, row.worker_id, row.session_kind, row.display_name, row.name_key, row.actor_label,
        row.agent_key, row.owner_label, row.ide_label, row.runtime, row.repo_branch, row.status, row.status_text,
        row.created_at, row.updated_at, row.last_seen_at,
      ),
    );
    return 'inserted';
  } catch (error) {
    if (isNameClash(error)) return 'name_taken';
    throw error;
  }
}

/** Clears the end, touches last_seen_at and sets the reconnect presence; keeps repo_branch when none is given. */
export async function reviveSessionRow(tx: Tx, sessionId: string, repoBranch: string | null | undefined, statusText: string): Promise<void> {
  await tx.run(
    `UPDATE agent_sessions SET ended_at = NULL, ended_by = NULL, status = 'idle', status_text = ?,
         repo_branch = CASE WHEN ? = 1 THEN CAST(? AS TEXT) ELSE repo_branch END, updated_at = ?, last_seen_at = ?
       WHERE session_id = ?`,
    statusText, repoBranch === undefined ? 0 : 1, repoBranch ?? null, tx.now, tx.now, sessionId,
  );
}

/**
 * A connection of the app `hostId` takes the session: a new binding epoch (which fences the
 * one before, on any machine), the host and its machine, held from now. Returns the epoch.
 */
export async function bindSessionRow(tx: Tx, sessionId: string, hostId: string, hostLabel: string): Promise<number> {
  const row = await tx.get<{ binding_epoch: number }>(
    `UPDATE agent_sessions SET binding_epoch = binding_epoch + 1, host_id = ?, host_label = ?, released_at = NULL
       WHERE session_id = ? RETURNING binding_epoch`,
    hostId, hostLabel, sessionId,
  );
  return row?.binding_epoch ?? 0;
}

/** Fences every connection that holds the session (a person ended it): returns the new epoch. */
export async function bumpBindingEpoch(tx: Tx, sessionId: string): Promise<number> {
  const row = await tx.get<{ binding_epoch: number }>(
    'UPDATE agent_sessions SET binding_epoch = binding_epoch + 1 WHERE session_id = ? RETURNING binding_epoch',
    sessionId,
  );
  return row?.binding_epoch ?? 0;
}

/** The session's binding epoch (0 for an unknown session). */
export async function selectBindingEpoch(q: Queryable, sessionId: string): Promise<number> {
  const row = await q.get<{ binding_epoch: number }>('SELECT binding_epoch FROM agent_sessions WHERE session_id = ?', sessionId);
  return row?.binding_epoch ?? 0;
}

/** The connection holding epoch `epoch` let go (closed): unless someone took the session since. */
export async function releaseSessionRow(tx: Tx, sessionId: string, epoch: number): Promise<void> {
  await tx.run('UPDATE agent_sessions SET released_at = ? WHERE session_id = ? AND binding_epoch = ? AND released_at IS NULL', tx.now, sessionId, epoch);
}

/** An app's heartbeat in this database: it is alive and holds what it says it holds. */
export async function upsertAppHost(tx: Tx, hostId: string, hostLabel: string): Promise<void> {
  await tx.run(
    `INSERT INTO app_hosts (host_id, host_label, heard_at) VALUES (?, ?, ?)
       ON CONFLICT (host_id) DO UPDATE SET host_label = excluded.host_label, heard_at = excluded.heard_at`,
    hostId, hostLabel, tx.now,
  );
}

export async function endSessionRow(tx: Tx, sessionId: string, endedBy: EndedBy): Promise<void> {
  await tx.run(
    'UPDATE agent_sessions SET ended_at = ?, ended_by = ?, updated_at = ? WHERE session_id = ? AND ended_at IS NULL',
    tx.now, endedBy, tx.now, sessionId,
  );
}

/** Renames a session; 'name_taken' when the new name_key clashes in the room (nothing changed; savepoint as above). */
export async function renameSessionRow(
  tx: Tx,
  sessionId: string,
  name: { displayName: string; nameKey: string; actorLabel: string },
): Promise<'renamed' | 'name_taken'> {
  try {
    await tx.savepoint(() =>
      tx.run(
        'UPDATE agent_sessions SET display_name = ?, name_key = ?, actor_label = ?, updated_at = ? WHERE session_id = ?',
        name.displayName, name.nameKey, name.actorLabel, tx.now, sessionId,
      ),
    );
    return 'renamed';
  } catch (error) {
    if (isNameClash(error)) return 'name_taken';
    throw error;
  }
}

/** Sets presence; returns the session's room, or null for an unknown session. */
export async function updatePresenceRow(tx: Tx, sessionId: string, status: SessionStatus, statusText: string): Promise<string | null> {
  const row = await tx.get<{ room_id: string }>(
    'UPDATE agent_sessions SET status = ?, status_text = ?, updated_at = ?, last_seen_at = ? WHERE session_id = ? RETURNING room_id',
    status, statusText, tx.now, tx.now, sessionId,
  );
  return row?.room_id ?? null;
}

/**
 * Live sessions of the room whose presence is about `word` (a task id such as task_7, as
 * a whole word): their status goes back to idle with `idleText`. Unlike updatePresenceRow it
 * leaves last_seen_at alone: someone else's action, not the agent, changed it. Returns their ids.
 */
export async function resetPresenceNaming(tx: Tx, roomId: string, word: string, idleText: string): Promise<string[]> {
  const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  // LIKE only narrows the rows (it ignores case in SQLite, not in PostgreSQL); the whole-word test decides.
  const rows = await tx.all<{ session_id: string; status_text: string }>(
    "SELECT session_id, status_text FROM agent_sessions WHERE room_id = ? AND ended_at IS NULL AND status != 'idle' AND status_text LIKE ? ESCAPE '\\'",
    roomId, like,
  );
  const whole = new RegExp(`(^|[^\\w])${word}(?![\\w])`);
  const ids = rows.filter((row) => whole.test(row.status_text)).map((row) => row.session_id);
  for (const id of ids) {
    await tx.run("UPDATE agent_sessions SET status = 'idle', status_text = ?, updated_at = ? WHERE session_id = ?", idleText, tx.now, id);
  }
  return ids;
}

/** Stores the latest reasoning; returns the session's room, or null for an unknown session. */
export async function updateReasoningRow(tx: Tx, sessionId: string, reasoningJson: string): Promise<string | null> {
  const row = await tx.get<{ room_id: string }>(
    'UPDATE agent_sessions SET reasoning_json = ?, updated_at = ?, last_seen_at = ? WHERE session_id = ? RETURNING room_id',
    reasoningJson, tx.now, tx.now, sessionId,
  );
  return row?.room_id ?? null;
}

export async function touchSessionLastSeen(tx: Tx, sessionId: string): Promise<void> {
  await tx.run('UPDATE agent_sessions SET last_seen_at = ? WHERE session_id = ?', tx.now, sessionId);
}

/** Live durable worker sessions in a room with this normalised name (recovery, name notice). */
export function findLiveWorkerSessionsByNameKey(q: Queryable, roomId: string, nameKey: string): Promise<SessionRow[]> {
  return q.all<SessionRow>(
    `${SESSION_SELECT}
       WHERE s.room_id = ? AND s.name_key = ? AND s.worker_id IS NOT NULL AND s.ended_at IS NULL
       ORDER BY s.created_at, s.session_id LIMIT ?`,
    roomId, nameKey, MAX_ROOM_SESSIONS,
  );
}

/** Every session of a room, controllers and ended ones included, oldest first. */
export function listRoomSessionRows(q: Queryable, roomId: string): Promise<SessionRow[]> {
  return q.all<SessionRow>(
    `${SESSION_SELECT} WHERE s.room_id = ? ORDER BY s.created_at, s.session_id LIMIT ?`,
    roomId, MAX_ROOM_SESSIONS,
  );
}

/** People's names a room holds (at most `limit`): who posted there as a person, and whose agents are there. */
export async function listRoomPeopleNames(q: Queryable, roomId: string, limit: number): Promise<string[]> {
  const rows = await q.all<{ name: string }>(
    `SELECT sender AS name FROM messages WHERE room_id = ? AND source = 'human'
     UNION SELECT owner_label AS name FROM agent_sessions WHERE room_id = ? LIMIT ?`,
    roomId, roomId, limit,
  );
  return rows.map((r) => r.name);
}

/** Worker-kind sessions (never controllers) of one room or all rooms: live first, then most recently seen. */
export function listRosterRows(q: Queryable, roomId: string | null): Promise<RosterRow[]> {
  return q.all<RosterRow>(
    `SELECT s.*, r.display_name AS room_name, (SELECT h.heard_at FROM app_hosts h WHERE h.host_id = s.host_id) AS host_heard_at
       FROM agent_sessions s JOIN rooms r ON r.room_id = s.room_id
       WHERE s.session_kind = 'worker' AND (CAST(? AS TEXT) IS NULL OR s.room_id = ?)
       ORDER BY s.ended_at IS NOT NULL, s.last_seen_at DESC, s.session_id LIMIT ?`,
    roomId, roomId, MAX_ROSTER_ROWS,
  );
}

/** Active work leases (room, holder agent key, task number) in one room or all rooms. */
export function listActiveWorkLeaseHolders(
  q: Queryable,
  roomId: string | null,
): Promise<Array<{ room_id: string; agent_key: string; task_number: number }>> {
  return q.all<{ room_id: string; agent_key: string; task_number: number }>(
    `SELECT room_id, agent_key, task_number FROM task_leases
       WHERE kind = 'work' AND status = 'active' AND agent_key IS NOT NULL AND (CAST(? AS TEXT) IS NULL OR room_id = ?)
       ORDER BY room_id, task_number LIMIT ?`,
    roomId, roomId, MAX_HELD_LEASES,
  );
}
