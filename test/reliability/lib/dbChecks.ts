// What "consistent" means for a LetAgents database, checked straight on the file: SQLite's
// own integrity checks, plus the spec's invariants whose breach would show a half-written
// write (data-model.md §1, §3.3, §4): dense per-room numbering, one system event per task
// change and per worker joining, and leases that agree with the task they hold.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { BACKGROUND_WRITE_TABLES } from '../../support/backgroundWrites';

export type Db = Database.Database;

/** Opens the app's database read-only, leaving the files as the app left them. */
export function openAppDatabase(dataDir: string): Db {
  return new Database(join(dataDir, 'letagents.db'), { readonly: true, fileMustExist: true });
}

/** Runs `fn` on the data folder's database and closes it again. */
export function withAppDatabase<T>(dataDir: string, fn: (db: Db) => T): T {
  const db = openAppDatabase(dataDir);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** SQLite's integrity_check, the foreign keys and the full-text index. */
export function integrityProblems(db: Db): string[] {
  const problems: string[] = [];
  const integrity = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
  if (integrity.length !== 1 || integrity[0].integrity_check !== 'ok') problems.push(`integrity_check: ${JSON.stringify(integrity)}`);
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(fk.slice(0, 5))}`);
  // The full-text index must hold exactly the searchable messages (its docsize table has
  // one row per indexed message) and answer a query.
  try {
    db.prepare("SELECT 1 FROM messages_fts WHERE messages_fts MATCH 'zzzz'").all();
    const indexed = (db.prepare('SELECT count(*) AS n FROM messages_fts_docsize').get() as { n: number }).n;
    const content = (db.prepare("SELECT count(*) AS n FROM messages WHERE NOT (agent_prompt_kind IS 'auto' AND trim(text) = '')").get() as { n: number }).n;
    if (indexed !== content) problems.push(`messages_fts has ${indexed} rows for ${content} messages`);
  } catch (error) {
    problems.push(`messages_fts: ${(error as Error).message}`);
  }
  return problems;
}

const NUMBERED = [
  ['messages', 'number', 'next_message_number'],
  ['tasks', 'number', 'next_task_number'],
  ['room_facts', 'number', 'next_fact_number'],
  ['human_requests', 'number', 'next_request_number'],
  ['room_artifacts', 'number', 'next_artifact_number'],
] as const;

const HELD = new Set(['assigned', 'in_progress', 'blocked', 'in_review']);

interface TaskRow {
  room_id: string;
  number: number;
  status: string;
  assignee: string | null;
  assignee_agent_key: string | null;
  assignee_session_id: string | null;
}
interface LeaseRow {
  room_id: string;
  task_number: number;
  kind: string;
  agent_key: string | null;
  session_id: string | null;
  holder_label: string;
}

/**
 * The spec's invariants. Numbering: with nothing deleted, numbers are 1..next-1 with no
 * gap (dense in commit order, never reused). Tasks: every status change has its
 * task_events row and its one system event; a held task has exactly one active work
 * lease whose holder is the assignee; an unheld task has none, and a proposed or accepted
 * one no assignee. Workers: every
 * worker-kind session has its "joined the room." event.
 */
export function consistencyProblems(db: Db): string[] {
  const problems: string[] = [];
  const rooms = db.prepare('SELECT * FROM rooms').all() as Array<Record<string, number | string>>;
  for (const room of rooms) {
    const roomId = String(room.room_id);
    for (const [table, column, counter] of NUMBERED) {
      const { n, max } = db.prepare(`SELECT count(*) AS n, coalesce(max(${column}), 0) AS max FROM ${table} WHERE room_id = ?`).get(roomId) as { n: number; max: number };
      const next = Number(room[counter]);
      if (n !== max || next !== max + 1) problems.push(`${roomId}: ${table} has ${n} rows, highest ${max}, ${counter} ${next} (expected 1..${next - 1} with no gap)`);
    }
    problems.push(...taskProblems(db, roomId), ...joinProblems(db, roomId));
  }
  return problems;
}

function taskProblems(db: Db, roomId: string): string[] {
  const problems: string[] = [];
  const tasks = db.prepare('SELECT * FROM tasks WHERE room_id = ? ORDER BY number').all(roomId) as TaskRow[];
  const events = db.prepare("SELECT text FROM messages WHERE room_id = ? AND source = 'system' AND kind = 'event'").all(roomId) as Array<{ text: string }>;
  const eventCount = new Map<number, number>();
  for (const { text } of events) {
    // Review-lease events and pr_url edits change no status; every other task event does.
    if (/ is reviewing task_| released review of task_| updated task_\d+\.$/.test(text)) continue;
    const match = /^(?:\S+ (?:proposed|added) task_(\d+): |\S+ (?:claimed|released) task_(\d+)\.$|task_(\d+) was handed off |task_(\d+) moved from )/.exec(text);
    if (!match) continue;
    const n = Number(match[1] ?? match[2] ?? match[3] ?? match[4]);
    eventCount.set(n, (eventCount.get(n) ?? 0) + 1);
  }
  const historyOf = db.prepare('SELECT from_status, to_status FROM task_events WHERE room_id = ? AND task_number = ? ORDER BY seq');
  const leasesOf = db.prepare("SELECT * FROM task_leases WHERE room_id = ? AND task_number = ? AND status = 'active'");
  for (const task of tasks) {
    const id = `${roomId}/task_${task.number}`;
    const history = historyOf.all(roomId, task.number) as Array<{ from_status: string | null; to_status: string }>;
    if (history.length === 0 || history[0].from_status !== null) problems.push(`${id}: no creation row in task_events`);
    else if (history.at(-1)!.to_status !== task.status) problems.push(`${id}: status ${task.status} but history ends at ${history.at(-1)!.to_status}`);
    const posted = eventCount.get(task.number) ?? 0;
    if (posted !== history.length) problems.push(`${id}: ${history.length} status changes but ${posted} system events`);
    const leases = leasesOf.all(roomId, task.number) as LeaseRow[];
    const work = leases.filter((l) => l.kind === 'work');
    if (leases.filter((l) => l.kind === 'review').length > 1) problems.push(`${id}: more than one active review lease`);
    if (HELD.has(task.status)) {
      if (work.length !== 1) problems.push(`${id}: held (${task.status}) with ${work.length} active work leases`);
      else if (work[0].agent_key !== task.assignee_agent_key || work[0].session_id !== task.assignee_session_id || work[0].holder_label !== task.assignee) {
        problems.push(`${id}: work lease holder ${work[0].agent_key} is not the assignee ${task.assignee_agent_key}`);
      }
    } else if (task.status !== 'merged') {
      if (work.length > 0) problems.push(`${id}: ${task.status} but holds an active work lease`);
      // done and cancelled keep who did the work; an open unheld task has no assignee.
      if ((task.status === 'proposed' || task.status === 'accepted') && task.assignee_agent_key !== null) problems.push(`${id}: ${task.status} but has an assignee`);
    }
  }
  return problems;
}

function joinProblems(db: Db, roomId: string): string[] {
  const sessions = db.prepare("SELECT display_name FROM agent_sessions WHERE room_id = ? AND session_kind = 'worker'").all(roomId) as Array<{ display_name: string }>;
  const joins = db.prepare("SELECT text FROM messages WHERE room_id = ? AND source = 'system' AND text LIKE '% joined the room.'").all(roomId) as Array<{ text: string }>;
  const posted = new Map<string, number>();
  for (const { text } of joins) posted.set(text, (posted.get(text) ?? 0) + 1);
  const problems: string[] = [];
  for (const { display_name } of sessions) {
    const key = `${display_name} joined the room.`;
    const left = posted.get(key) ?? 0;
    if (left === 0) problems.push(`${roomId}: session "${display_name}" has no join event`);
    else posted.set(key, left - 1);
  }
  for (const [text, left] of posted) if (left > 0) problems.push(`${roomId}: join event "${text}" without its session`);
  return problems;
}

/** Row counts of every table plus every room's counters: equal snapshots mean nothing was written. */
export function storeSnapshot(db: Db): string {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).filter(
    ({ name }) => !BACKGROUND_WRITE_TABLES.has(name),
  );
  const counts = tables.map(({ name }) => `${name}=${(db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n}`);
  const counters = db
    .prepare('SELECT room_id, next_message_number, next_task_number, next_fact_number, next_request_number, next_artifact_number, archived_at FROM rooms ORDER BY room_id')
    .all();
  return JSON.stringify({ counts, counters });
}
