import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase } from '../../../../src/main/store/sqlite/database';
import { migrations, SCHEMA_VERSION } from '../../../../src/main/store/sqlite/migrations';
import { migration005 } from '../../../../src/main/store/sqlite/migrations/005_places';
import { migration007 } from '../../../../src/main/store/sqlite/migrations/007_approvals';
import { migration008 } from '../../../../src/main/store/sqlite/migrations/008_copilot';
import { migration009 } from '../../../../src/main/store/sqlite/migrations/009_openLists';
import { migration011 } from '../../../../src/main/store/sqlite/migrations/011_teamManaged';
import { migration012 } from '../../../../src/main/store/sqlite/migrations/012_phone';
import { migration014 } from '../../../../src/main/store/sqlite/migrations/014_routedTo';
import { migration015 } from '../../../../src/main/store/sqlite/migrations/015_broadcastTurns';
import { setReplyToAll } from '../../../../src/main/domain/rooms/rooms';
import { finishTurnRow, insertActivityRow, insertTurnRow } from '../../../../src/main/store/managedAgentQueries';
import { TestStorage, writeRaw } from '../../../support/storage';
import { ensureRoom } from '../../../../src/main/domain/rooms/rooms';
import { findOrCreateWorker } from '../../../../src/main/domain/sessions/workers';
import { sessionActor, type SessionRow } from '../../../../src/main/domain/sessions/sessions';
import type { WorkerRow } from '../../../../src/main/domain/sessions/workers';
import { workerSessionId } from '../../../../src/main/domain/identity/agentKeys';
import { actorLabel } from '../../../../src/main/domain/identity/labels';
import { postSystemEvent } from '../../../../src/main/domain/systemEvents';
import { addTask } from '../../../../src/main/domain/tasks/createTask';
import { sendMessage } from '../../../../src/main/domain/messages/send';
import type { PersonActor } from '../../../../src/main/domain/actor';
import { getTask } from '../../../../src/main/domain/tasks/board';
import { updateTask } from '../../../../src/main/domain/tasks/updateTask';
import { raiseAlert } from '../../../../src/main/domain/knowledge/alerts';
import { recordDeliveries } from '../../../../src/main/domain/delivery/receipts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const dbPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'letagents-migrate-'));
  dirs.push(dir);
  return join(dir, 'letagents.db');
};

const ada: PersonActor = { kind: 'person', label: 'Ada' };

/**
 * "Juniper" joins room 'lab' in a database of an older version, as the app of that version
 * wrote it: the worker, its session (without the columns later migrations added, which the
 * current session queries read) and the join event.
 */
async function oldWorkerJoins(raw: Database.Database, registrationKey: string): Promise<{ worker: WorkerRow; session: SessionRow }> {
  const { worker } = await writeRaw(raw, (tx) =>
    findOrCreateWorker(tx, { registrationKey, requestedName: 'Juniper', ownerLabel: 'Ada', ownerSlug: 'ada', ideLabel: 'Codex' }),
  );
  const sessionId = workerSessionId(worker.worker_id, 'lab');
  const label = actorLabel('Juniper', 'Ada', 'Codex');
  raw.prepare(
    `INSERT INTO agent_sessions (session_id, room_id, worker_id, session_kind, display_name, name_key, actor_label, agent_key, owner_label,
       ide_label, runtime, status, status_text, created_at, updated_at, last_seen_at)
     VALUES (?, 'lab', ?, 'worker', 'Juniper', 'juniper', ?, ?, 'Ada', 'Codex', 'codex', 'idle', 'available in room', 't', 't', 't')`,
  ).run(sessionId, worker.worker_id, label, worker.agent_key);
  const session = raw.prepare('SELECT * FROM agent_sessions WHERE session_id = ?').get(sessionId) as SessionRow;
  await writeRaw(raw, (tx) => postSystemEvent(tx, 'lab', 'Juniper joined the room.', sessionActor(session)));
  return { worker, session };
}
const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts_%' ORDER BY name").all() as { name: string }[]).map((r) => r.name);

describe('migrations', () => {
  it('the migrations build every table of the data model on a fresh database, as STRICT tables', () => {
    const db = openDatabase(dbPath());
    expect(tables(db)).toEqual(expect.arrayContaining([
      'rooms', 'messages', 'messages_fts', 'thread_participants', 'attachments', 'tasks', 'task_leases', 'task_events',
      'workers', 'agent_sessions', 'room_facts', 'human_requests', 'room_artifacts', 'artifact_task_links',
      'client_room_sessions', 'account', 'settings', 'managed_agents', 'managed_agent_turns', 'managed_agent_activity',
      'delivery_spans', 'token_meter', 'needs_you_alerts',
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
    // CPU only, and it grows with the square of the migrations (10 s of the default 30 in a green
    // CI run with 17): a loaded machine runs it several times slower.
  }, 90_000);

  it('migration 2 upgrades a version-1 database holding a real room: rows kept, old events concern no one, new ones record who they concern', async () => {
    const path = dbPath();
    // A database at version 1, written by the app's own code: a room, a worker that joined
    // and proposed a task, and a person's message.
    const raw = new Database(path);
    raw.exec(migrations[0]);
    raw.pragma('user_version = 1');
    raw.pragma('foreign_keys = ON');
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    const { session } = await oldWorkerJoins(raw, 'k-4f7a9c2e81d6b035');
    await writeRaw(raw, (tx) => addTask(tx, 'lab', sessionActor(session), { title: 'Fix login' }));
    await writeRaw(raw, (tx) => sendMessage(tx, { roomId: 'lab', author: ada, text: 'Thanks!' }));
    const before = raw.prepare('SELECT number, source, text FROM messages ORDER BY number').all();
    expect(before).toHaveLength(3);
    raw.close();

    const store = new TestStorage({ path });
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.prepare('SELECT number, source, text FROM messages ORDER BY number').all()).toEqual(before);
    expect(await getTask(store.q, 'lab', 1)).toMatchObject({ status: 'proposed', created_by: session.actor_label });
    expect(store.db.prepare('SELECT count(*) FROM event_concerns').pluck().get()).toBe(0);
    // From now on events record who they concern: the person accepting the task concerns its proposer.
    await store.write((tx) => updateTask(tx, 'lab', 1, ada, { status: 'accepted' }));
    expect(store.db.prepare('SELECT message_number, agent_key, role, task_number FROM event_concerns').all()).toEqual([
      { message_number: 4, agent_key: session.agent_key, role: 'proposer', task_number: 1 },
    ]);
    // Deleting the room takes its events' concerns with it.
    await store.write((tx) => tx.run("DELETE FROM rooms WHERE room_id = 'lab'"));
    expect(store.db.prepare('SELECT count(*) FROM event_concerns').pluck().get()).toBe(0);
    await store.close();
  });

  it('migration 3 adds managed agents to a version-2 database holding a real room: rows and event concerns kept', async () => {
    const path = dbPath();
    // A database at version 2, written by the app's own code: a room, a worker that joined and
    // proposed a task a person accepted (an event that concerns the proposer), and a message.
    const raw = new Database(path);
    raw.exec(migrations[0]);
    raw.exec(migrations[1]);
    raw.pragma('user_version = 2');
    raw.pragma('foreign_keys = ON');
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    const { worker, session } = await oldWorkerJoins(raw, 'k-9b3e5d7f1a2c4860');
    await writeRaw(raw, (tx) => addTask(tx, 'lab', sessionActor(session), { title: 'Fix login' }));
    await writeRaw(raw, (tx) => updateTask(tx, 'lab', 1, ada, { status: 'accepted' }));
    await writeRaw(raw, (tx) => sendMessage(tx, { roomId: 'lab', author: ada, text: 'Thanks!' }));
    const messages = raw.prepare('SELECT number, source, text FROM messages ORDER BY number').all();
    const concerns = raw.prepare('SELECT message_number, agent_key, role, task_number FROM event_concerns').all();
    expect(concerns).toHaveLength(1);
    raw.close();

    const db = openDatabase(path);
    // Brought to the newest version (migration 3 and every later one).
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT number, source, text FROM messages ORDER BY number').all()).toEqual(messages);
    expect(db.prepare('SELECT message_number, agent_key, role, task_number FROM event_concerns').all()).toEqual(concerns);
    expect(db.prepare('SELECT display_name FROM agent_sessions').pluck().all()).toEqual(['Juniper']);
    db.prepare(
      "INSERT INTO managed_agents (agent_id, worker_id, room_id, provider, folder, permissions, created_at, updated_at) VALUES ('a1', ?, 'lab', 'codex', '/work', 'read_only', 't', 't')",
    ).run(worker.worker_id);
    expect(db.prepare('SELECT desired_state, next_turn_number FROM managed_agents').get()).toEqual({ desired_state: 'running', next_turn_number: 1 });
    expect(() => db.prepare("UPDATE managed_agents SET permissions = 'anything'").run()).toThrow(/CHECK/);
    // Deleting the room takes its events' concerns with it (its managed agents: the app, since migration 11).
    db.prepare("DELETE FROM rooms WHERE room_id = 'lab'").run();
    expect(db.prepare('SELECT COUNT(*) FROM event_concerns').pluck().get()).toBe(0);
    db.close();
  });

  it('migration 4 adds receipts, the token meter and the app\'s own "Needs you" items to a version-3 database, keeping its rows', async () => {
    const path = dbPath();
    const raw = new Database(path);
    for (let v = 0; v < 3; v++) raw.exec(migrations[v]);
    raw.pragma('user_version = 3');
    raw.pragma('foreign_keys = ON');
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    await writeRaw(raw, (tx) => sendMessage(tx, { roomId: 'lab', author: ada, text: 'Before the update' }));
    raw.close();

    const store = new TestStorage({ path });
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.prepare('SELECT text FROM messages').pluck().all()).toEqual(['Before the update']);
    // An existing room numbers its items from 1.
    expect(await store.write((tx) => raiseAlert(tx, { roomId: 'lab', kind: 'loop', subject: 's', title: 't', body: 'b' }))).toBe(1);
    expect(await store.write((tx) => raiseAlert(tx, { roomId: 'lab', kind: 'loop', subject: 's', title: 't', body: 'b' }))).toBeNull();
    await store.write((tx) => recordDeliveries(tx, [{ roomId: 'lab', sessionId: 's1', first: 1, last: 1, at: tx.now }]));
    expect(() => store.db.prepare("INSERT INTO delivery_spans (room_id, session_id, first_number, last_number, delivered_at) VALUES ('lab', 's2', 5, 4, 't')").run()).toThrow(/CHECK/);
    // Deleting the room takes its receipts, meter and items with it.
    store.db.prepare("INSERT INTO token_meter (room_id, session_id, day, bytes, results) VALUES ('lab', 's1', '2026-01-01', 10, 1)").run();
    store.db.prepare("DELETE FROM rooms WHERE room_id = 'lab'").run();
    for (const table of ['delivery_spans', 'token_meter', 'needs_you_alerts']) expect(store.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get(), table).toBe(0);
    await store.close();
  });

  it('migration 5 (places) keeps a room\'s sessions, read marker, dismissals and clients\' saved rooms, as this computer\'s', async () => {
    const path = dbPath();
    const version = migrations.indexOf(migration005);
    // A database at the version before it, with what the tables it changes hold.
    const raw = new Database(path);
    for (let v = 0; v < version; v++) raw.exec(migrations[v]);
    raw.pragma(`user_version = ${version}`);
    raw.pragma('foreign_keys = ON');
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    const { session } = await oldWorkerJoins(raw, 'k-5c1d9e2f7a3b4860');
    raw.prepare("INSERT INTO room_reads (room_id, last_read_number) VALUES ('lab', 1)").run();
    raw.prepare("INSERT INTO needs_you_dismissals (room_id, item_kind, number, dismissed_at) VALUES ('lab', 'mention', 1, 't')").run();
    raw.prepare("INSERT INTO client_room_sessions (client_key, room_id, joined_via, last_seen_at, is_current) VALUES ('codex\n/w', 'lab', 'join_room', 't', 1)").run();
    raw.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT session_id, binding_epoch, host_id, host_label, released_at FROM agent_sessions').all()).toEqual([
      { session_id: session.session_id, binding_epoch: 0, host_id: null, host_label: null, released_at: null },
    ]);
    expect(db.prepare('SELECT room_id, reader_id, last_read_number FROM room_reads').all()).toEqual([{ room_id: 'lab', reader_id: '', last_read_number: 1 }]);
    expect(db.prepare('SELECT room_id, item_kind, number, reader_id FROM needs_you_dismissals').all()).toEqual([{ room_id: 'lab', item_kind: 'mention', number: 1, reader_id: '' }]);
    expect(db.prepare('SELECT client_key, place, room_id, is_current FROM client_room_sessions').all()).toEqual([{ client_key: 'codex\n/w', place: 'local', room_id: 'lab', is_current: 1 }]);
    // Each reader has its own marker; a team room's saved session needs no room here.
    db.prepare("INSERT INTO room_reads (room_id, reader_id, last_read_number) VALUES ('lab', 'host_b', 3)").run();
    db.prepare("INSERT INTO client_room_sessions (client_key, place, room_id, joined_via, last_seen_at) VALUES ('codex\n/w', 'acme', 'elsewhere', 'join_room', 't')").run();
    expect(db.prepare('SELECT COUNT(*) FROM room_reads').pluck().get()).toBe(2);
    // Deleting the room still takes its read markers and dismissals with it.
    db.prepare("DELETE FROM rooms WHERE room_id = 'lab'").run();
    expect(db.prepare('SELECT COUNT(*) FROM room_reads').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM needs_you_dismissals').pluck().get()).toBe(0);
    db.close();
  });

  it.each([
    { name: '7 (ask, Gemini CLI and OpenCode)', migration: migration007, added: ['gemini', 'opencode'] },
    { name: '8 (GitHub Copilot CLI)', migration: migration008, added: ['copilot'] },
  ])('migration $name keeps managed agents with their turns and activity, and takes the new providers', async ({ migration, added }) => {
    const path = dbPath();
    const version = migrations.indexOf(migration);
    const raw = new Database(path);
    for (let v = 0; v < version; v++) raw.exec(migrations[v]);
    raw.pragma(`user_version = ${version}`);
    raw.pragma('foreign_keys = ON');
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    const { worker } = await oldWorkerJoins(raw, 'k-6a1d9e2f7a3b4861');
    raw.prepare("INSERT INTO managed_agents (agent_id, worker_id, room_id, provider, folder, permissions, created_at, updated_at) VALUES ('a1', ?, 'lab', 'codex', '/w', 'edit', 't', 't')").run(worker.worker_id);
    raw.prepare("INSERT INTO managed_agent_turns (agent_id, number, trigger_kind, trigger_text, status, started_at) VALUES ('a1', 1, 'run_now', 'Ada', 'done', 't')").run();
    raw.prepare("INSERT INTO managed_agent_activity (agent_id, seq, turn_number, kind, text, created_at) VALUES ('a1', 1, 1, 'note', 'hello', 't')").run();
    for (const provider of added) expect(() => raw.prepare('UPDATE managed_agents SET provider = ?').run(provider)).toThrow(/CHECK/);
    raw.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT agent_id, provider, permissions FROM managed_agents').all()).toEqual([{ agent_id: 'a1', provider: 'codex', permissions: 'edit' }]);
    expect(db.prepare('SELECT COUNT(*) FROM managed_agent_turns').pluck().get()).toBe(1);
    expect(db.prepare('SELECT text FROM managed_agent_activity').pluck().all()).toEqual(['hello']);
    for (const provider of added) db.prepare('UPDATE managed_agents SET provider = ?').run(provider);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // The turns and activity still go with their agent.
    db.prepare("DELETE FROM managed_agents WHERE agent_id = 'a1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM managed_agent_turns').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM managed_agent_activity').pluck().get()).toBe(0);
    db.close();
  });

  it('migration 11 keeps managed agents (in this computer\'s rooms, under their room name) and makes each a member of its room', async () => {
    const path = dbPath();
    const version = migrations.indexOf(migration011);
    const raw = new Database(path);
    for (let v = 0; v < version; v++) raw.exec(migrations[v]);
    raw.pragma(`user_version = ${version}`);
    raw.pragma('foreign_keys = ON');
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    const { worker } = await oldWorkerJoins(raw, 'k-3d9f1b7a5e2c4068');
    raw.prepare(
      "INSERT INTO managed_agents (agent_id, worker_id, room_id, provider, folder, permissions, desired_state, created_at, updated_at) VALUES ('a1', ?, 'lab', 'codex', '/w', 'read_only', 'paused', 't0', 't1')",
    ).run(worker.worker_id);
    raw.prepare("INSERT INTO managed_agent_turns VALUES ('a1', 1, 'message', 'Ada: hi', 'done', 't0', 't1', 10, 20, 0.5, NULL)").run();
    raw.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT agent_id, place, name FROM managed_agents').all()).toEqual([{ agent_id: 'a1', place: 'local', name: 'Juniper' }]);
    expect(db.prepare('SELECT COUNT(*) FROM managed_agent_turns').pluck().get()).toBe(1);
    // A member between turns, run by this app (no host named), taking no turns while paused.
    expect(db.prepare('SELECT room_id, worker_id, agent_id, host_id, takes_turns FROM managed_members').all()).toEqual([
      { room_id: 'lab', worker_id: worker.worker_id, agent_id: 'a1', host_id: null, takes_turns: 0 },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // A room's deletion takes its members; the agent's settings go in the app (agents/roomMembers.ts).
    db.prepare("DELETE FROM rooms WHERE room_id = 'lab'").run();
    expect(db.prepare('SELECT COUNT(*) FROM managed_members').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM managed_agents').pluck().get()).toBe(1);
    db.close();
  });

  it('migration 9 keeps managed agents, turns and activity row for row, and leaves their value lists to the app', async () => {
    const path = dbPath();
    const version = migrations.indexOf(migration009);
    const raw = new Database(path);
    for (let v = 0; v < version; v++) raw.exec(migrations[v]);
    raw.pragma(`user_version = ${version}`);
    raw.pragma('foreign_keys = ON');
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    const { worker } = await oldWorkerJoins(raw, 'k-7b2e0f3a8c4d5972');
    raw.prepare(
      `INSERT INTO managed_agents (agent_id, worker_id, room_id, provider, folder, instructions, model, permissions, turns_per_hour, daily_token_cap,
         desired_state, held_reason, held_request_number, budget_reset_at, provider_session_id, provider_totals_json, next_turn_number, next_activity_seq,
         created_at, updated_at, waiting_json, cant_run_json)
       VALUES ('a1', ?, 'lab', 'copilot', '/w', 'Review PRs.', 'gpt-5', 'edit', 5, 200000, 'paused', 'daily_tokens', 3, 't2', 's-9', '{"in":1}', 3, 3, 't0', 't1', '[]', NULL)`,
    ).run(worker.worker_id);
    raw.prepare("INSERT INTO managed_agent_turns VALUES ('a1', 1, 'message', 'Ada: hi', 'done', 't0', 't1', 10, 20, 0.5, NULL)").run();
    raw.prepare("INSERT INTO managed_agent_turns VALUES ('a1', 2, 'run_now', 'Ada', 'failed', 't1', 't2', 1, 2, NULL, 'quota')").run();
    raw.prepare("INSERT INTO managed_agent_activity VALUES ('a1', 1, 1, 'trigger', 'Ada: hi', 't0')").run();
    raw.prepare("INSERT INTO managed_agent_activity VALUES ('a1', 2, 2, 'error', 'quota', 't1')").run();
    // At version 8 the database refuses what the app's lists may add later.
    expect(() => raw.prepare("UPDATE managed_agents SET provider = 'gemini_fork'").run()).toThrow(/CHECK/);
    expect(() => raw.prepare("UPDATE managed_agent_turns SET trigger_kind = 'automation' WHERE number = 1").run()).toThrow(/CHECK/);
    // The columns of version 9 (migration 11 adds where the agent's room lives and its name).
    const rows = (db: Database.Database) => ['managed_agents', 'managed_agent_turns', 'managed_agent_activity'].map((t) =>
      (db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all() as Array<Record<string, unknown>>).map(({ place: _p, name: _n, ...row }) => row));
    const before = rows(raw);
    raw.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    // Every row and value kept (later migrations may add columns).
    expect(rows(db)).toMatchObject(before);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    // Any provider, trigger kind, turn status or activity kind the app writes is stored ...
    db.prepare("UPDATE managed_agents SET provider = 'gemini_fork'").run();
    db.prepare("UPDATE managed_agent_turns SET trigger_kind = 'automation', status = 'passed' WHERE number = 1").run();
    db.prepare("UPDATE managed_agent_activity SET kind = 'outcome' WHERE seq = 1").run();
    // ... while the checks of what stays one fixed set are kept.
    expect(() => db.prepare("UPDATE managed_agents SET permissions = 'everything'").run()).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE managed_agents SET desired_state = 'asleep'").run()).toThrow(/CHECK/);
    // The app's writes check the values against its lists instead, before writing anything.
    await expect(writeRaw(db, (tx) => insertTurnRow(tx, 'a1', { kind: 'webhook' as never, text: 'x' }))).rejects.toThrow('Trigger kind "webhook" is not one of message, task, run_now');
    await expect(writeRaw(db, (tx) => finishTurnRow(tx, 'a1', 2, { status: 'passed' as never, inputTokens: 0, outputTokens: 0, costUsd: null, error: null })))
      .rejects.toThrow('Turn status "passed" is not one of running, done,');
    await expect(writeRaw(db, (tx) => insertActivityRow(tx, 'a1', 2, 'outcome' as never, 'x'))).rejects.toThrow('Activity kind "outcome" is not one of trigger,');
    expect(db.prepare('SELECT next_turn_number, next_activity_seq FROM managed_agents').get()).toEqual({ next_turn_number: 3, next_activity_seq: 3 });
    // The turns and activity still go with their agent.
    db.prepare("DELETE FROM managed_agents WHERE agent_id = 'a1'").run();
    expect(db.prepare('SELECT COUNT(*) FROM managed_agent_turns').pluck().get()).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM managed_agent_activity').pluck().get()).toBe(0);
    db.close();
  });

  it('migration 14 keeps a room\'s messages (older ones without a routing decision: today\'s rule) and stores the decision of new posts', async () => {
    const path = dbPath();
    const version = migrations.indexOf(migration014);
    const raw = new Database(path);
    for (let v = 0; v < version; v++) raw.exec(migrations[v]);
    raw.pragma(`user_version = ${version}`);
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    raw.prepare(
      `INSERT INTO messages (room_id, number, kind, source, sender, text, created_at) VALUES ('lab', 1, 'message', 'human', 'Ada', 'and the tests?', 't0')`,
    ).run();
    raw.prepare("UPDATE rooms SET next_message_number = 2 WHERE room_id = 'lab'").run();
    raw.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT text, routed_to FROM messages WHERE room_id = 'lab'").all()).toEqual([{ text: 'and the tests?', routed_to: null }]);
    const facts = { agents: [], recent: [], leaseHolders: [] };
    await writeRaw(db, (tx) => sendMessage(tx, { roomId: 'lab', author: ada, text: 'anyone?', roomFacts: facts }));
    expect(db.prepare("SELECT routed_to FROM messages WHERE room_id = 'lab' AND number = 2").get()).toEqual({ routed_to: '{"to":"everyone","agents":[]}' });
    db.close();
  });

  it('migration 15 keeps rooms and messages (rooms answer @all in turn), and a person\'s @all then stores its turn order', async () => {
    const path = dbPath();
    const version = migrations.indexOf(migration015);
    const raw = new Database(path);
    for (let v = 0; v < version; v++) raw.exec(migrations[v]);
    raw.pragma(`user_version = ${version}`);
    await writeRaw(raw, (tx) => ensureRoom(tx, { roomId: 'lab', kind: 'named' }));
    raw.prepare(
      `INSERT INTO messages (room_id, number, kind, source, sender, text, created_at) VALUES ('lab', 1, 'message', 'human', 'Ada', '@all before', 't0')`,
    ).run();
    raw.prepare("UPDATE rooms SET next_message_number = 2 WHERE room_id = 'lab'").run();
    raw.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT display_name, reply_to_all FROM rooms WHERE room_id = 'lab'").get()).toEqual({ display_name: 'lab', reply_to_all: 'in_turn' });
    expect(db.prepare("SELECT text FROM messages WHERE room_id = 'lab'").all()).toEqual([{ text: '@all before' }]);
    const member = (name: string) => ({ agentKey: `key_${name}`, handle: name, name, member: true });
    const facts = { agents: [member('cedar'), member('birch')], recent: [], leaseHolders: [] };
    await writeRaw(db, (tx) => sendMessage(tx, { roomId: 'lab', author: ada, text: '@all who can look?', roomFacts: facts }));
    expect(db.prepare("SELECT agent_key, position, handed_at FROM broadcast_turns WHERE room_id = 'lab' AND message_number = 2 ORDER BY position").all())
      .toEqual([{ agent_key: 'key_birch', position: 0, handed_at: null }, { agent_key: 'key_cedar', position: 1, handed_at: null }]);
    // A room answering all at once stores none; the order goes with its message.
    await writeRaw(db, (tx) => setReplyToAll(tx, 'lab', 'all_at_once'));
    await writeRaw(db, (tx) => sendMessage(tx, { roomId: 'lab', author: ada, text: '@all again?', roomFacts: facts }));
    expect(db.prepare("SELECT COUNT(*) FROM broadcast_turns WHERE message_number = 3").pluck().get()).toBe(0);
    db.prepare("DELETE FROM messages WHERE room_id = 'lab' AND number = 2").run();
    expect(db.prepare('SELECT COUNT(*) FROM broadcast_turns').pluck().get()).toBe(0);
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

  it('migration 12 (phone) keeps approvals, with nothing yet known of how their answers travelled, and adds paired phones', () => {
    const path = dbPath();
    const version = migrations.indexOf(migration012);
    const raw = new Database(path);
    for (let v = 0; v < version; v++) raw.exec(migrations[v]);
    raw.pragma(`user_version = ${version}`);
    raw.prepare(
      `INSERT INTO approvals (number, source, room_id, agent_name, tool, description, status, decision, decided_by, created_at, settled_at)
       VALUES (1, 'channel', 'lab', 'Juniper', 'Bash', 'npm test', 'allowed', 'allow_once', 'Ada', 't1', 't2')`,
    ).run();
    raw.close();

    const db = openDatabase(path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT number, status, decided_by, decided_via, delivered_at, outcome, cleared_at FROM approvals').all()).toEqual([
      { number: 1, status: 'allowed', decided_by: 'Ada', decided_via: null, delivered_at: null, outcome: null, cleared_at: null },
    ]);
    expect(() => db.prepare("UPDATE approvals SET outcome = 'approved'").run()).toThrow(/CHECK/);
    db.prepare("INSERT INTO phone_devices (device_id, name, key_hash, paired_at, paired_from) VALUES ('d1', 'Pixel 8', 'h', 't', '192.168.1.20')").run();
    // A device key's hash names one device only.
    expect(() => db.prepare("INSERT INTO phone_devices (device_id, name, key_hash, paired_at, paired_from) VALUES ('d2', 'iPhone', 'h', 't', '192.168.1.21')").run()).toThrow(/UNIQUE/);
    db.close();
  });
});
