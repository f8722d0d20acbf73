import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../../src/main/store/database';
import { migrations, SCHEMA_VERSION } from '../../../src/main/store/migrations';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const dbPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'letagents-migrate-'));
  dirs.push(dir);
  return join(dir, 'letagents.db');
};

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('migrations', () => {
  it('the migrations build every table of the data model on a fresh database, as STRICT tables', () => {
    const db = openDatabase(dbPath());
    expect(tables(db)).toEqual(expect.arrayContaining([
      'rooms', 'messages', 'messages_fts', 'thread_participants', 'attachments', 'tasks', 'task_leases', 'task_events',
      'workers', 'agent_sessions', 'room_facts', 'human_requests', 'room_artifacts', 'artifact_task_links',
      'client_room_sessions', 'account', 'settings', 'managed_agents', 'managed_agent_turns', 'managed_agent_activity',
    ]));
    const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE name = 'tasks'").get() as { sql: string }).sql;
    expect(sql).toMatch(/STRICT/);
    db.close();
  });

  it('each migration applies on a database left at the previous version, keeping its rows', () => {
    for (let version = 1; version <= SCHEMA_VERSION; version++) {
      const path = dbPath();
      // Bring a database to version - 1 by hand, with a row where there is a table for one.
      const raw = new Database(path);
      for (let v = 1; v < version; v++) raw.exec(migrations[v - 1]);
      raw.pragma(`user_version = ${version - 1}`);
      if (version > 1) raw.prepare("INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES ('kept', 'named', 'kept', 'x', 'x')").run();
      raw.close();
      const db = openDatabase(path);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      if (version > 1) expect(db.prepare("SELECT room_id FROM rooms WHERE room_id = 'kept'").get()).toEqual({ room_id: 'kept' });
      db.close();
    }
  });

  it('migration 2 adds managed agents to a database holding rooms, workers, sessions and messages', () => {
    const path = dbPath();
    const raw = new Database(path);
    raw.exec(migrations[0]);
    raw.pragma('user_version = 1');
    raw.prepare("INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES ('r', 'named', 'r', 't', 't')").run();
    raw.prepare("INSERT INTO messages (room_id, number, kind, source, sender, text, created_at) VALUES ('r', 1, 'message', 'human', 'Ada', 'kept', 't')").run();
    raw.prepare("INSERT INTO workers (worker_id, registration_key_hash, display_name, agent_key, owner_label, ide_label, runtime, created_at) VALUES ('w1', 'h', 'Juniper', 'ada/w1', 'Ada', 'Codex', 'codex', 't')").run();
    raw.prepare(
      "INSERT INTO agent_sessions (session_id, room_id, worker_id, session_kind, display_name, name_key, actor_label, agent_key, owner_label, ide_label, runtime, created_at, updated_at, last_seen_at) VALUES ('s1', 'r', 'w1', 'worker', 'Juniper', 'juniper', 'Juniper | Ada''s agent | Codex', 'ada/w1', 'Ada', 'Codex', 'codex', 't', 't', 't')",
    ).run();
    raw.close();
    const db = openDatabase(path);
    expect(db.prepare('SELECT text FROM messages').pluck().all()).toEqual(['kept']);
    expect(db.prepare('SELECT display_name FROM agent_sessions').pluck().all()).toEqual(['Juniper']);
    db.prepare(
      "INSERT INTO managed_agents (agent_id, worker_id, room_id, provider, folder, permissions, created_at, updated_at) VALUES ('a1', 'w1', 'r', 'codex', '/work', 'read_only', 't', 't')",
    ).run();
    expect(db.prepare('SELECT desired_state, next_turn_number FROM managed_agents').get()).toEqual({ desired_state: 'running', next_turn_number: 1 });
    expect(() => db.prepare("UPDATE managed_agents SET permissions = 'anything'").run()).toThrow(/CHECK/);
    // Deleting the room takes its managed agents with it.
    db.prepare("DELETE FROM rooms WHERE room_id = 'r'").run();
    expect(db.prepare('SELECT COUNT(*) FROM managed_agents').pluck().get()).toBe(0);
    db.close();
  });

  it('a failing migration leaves the database at its old version with nothing half-applied', () => {
    const path = dbPath();
    const raw = new Database(path);
    raw.exec('CREATE TABLE rooms (x INTEGER)'); // collides with migration 1's CREATE TABLE rooms
    raw.close();
    expect(() => openDatabase(path)).toThrow(/Cannot open the database/);
    const after = new Database(path);
    expect(after.pragma('user_version', { simple: true })).toBe(0);
    expect(tables(after)).toEqual(['rooms']);
    after.close();
  });

  it('the hot paths use their indexes', () => {
    const db = openDatabase(':memory:');
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan("SELECT * FROM messages WHERE room_id = 'r' ORDER BY number DESC LIMIT 100")).toMatch(/USING INDEX sqlite_autoindex_messages_1/);
    expect(plan("SELECT * FROM messages WHERE room_id = 'r' AND number > 5 ORDER BY number LIMIT 100")).toMatch(/USING INDEX sqlite_autoindex_messages_1/);
    expect(plan("SELECT * FROM messages WHERE room_id = 'r' AND thread_root_number = 3 ORDER BY number")).toMatch(/messages_thread/);
    expect(plan("SELECT * FROM tasks WHERE room_id = 'r' AND status = 'accepted' ORDER BY number")).toMatch(/tasks_board/);
    db.close();
  });
});
