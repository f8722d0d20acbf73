// Test world for the task domain: a real in-memory database behind the real store, one
// room, agent sessions inserted as rows, and helpers to snapshot state and read events.
import { expect } from 'vitest';
import type { Db } from '../../../../src/main/store/sqlite/database';
import type { Queryable, Tx } from '../../../../src/main/store/port';
import type { CoreEvent } from '../../../../src/main/events/types';
import { openTestStorage, type TestStorage } from '../../../support/storage';
import { insertRoomRow } from '../../../../src/main/store/rooms';
import type { AgentActor, PersonActor } from '../../../../src/main/domain/actor';

export const ROOM = 'room-a';
export const OTHER_ROOM = 'room-b';

export interface World {
  /** A raw connection on the store's file (snapshots, seeding). */
  db: Db;
  /** Committed reads through the port, for the domain's read functions. */
  q: Queryable;
  store: TestStorage;
  published: CoreEvent[];
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  agent(name: string, options?: { agentKey?: string; room?: string; ended?: boolean; kind?: 'worker' | 'controller' }): AgentActor;
  person: PersonActor;
}

let sessionCounter = 0;

export async function makeWorld(): Promise<World> {
  let tick = Date.parse('2026-05-01T09:30:00.000Z');
  const { store, events: published } = openTestStorage({ clock: () => new Date(tick++) });
  const db = store.db;
  await store.write(async (tx) => {
    await insertRoomRow(tx, { roomId: ROOM, kind: 'named', displayName: 'Room A' });
    await insertRoomRow(tx, { roomId: OTHER_ROOM, kind: 'named', displayName: 'Room B' });
  });

  function agent(name: string, options: Parameters<World['agent']>[1] = {}): AgentActor {
    const sessionId = `local_${(++sessionCounter).toString(16).padStart(64, '0')}`;
    const agentKey = options.agentKey ?? `key-${name.toLowerCase()}`;
    const label = `${name} | Ada's agent | Claude Code`;
    const now = new Date(tick).toISOString();
    db.prepare(
      `INSERT INTO agent_sessions (session_id, room_id, worker_id, session_kind, display_name, name_key, actor_label,
         agent_key, owner_label, ide_label, runtime, created_at, updated_at, last_seen_at, ended_at, ended_by)
       VALUES (?, ?, NULL, ?, ?, ?, ?, ?, 'Ada', 'Claude Code', 'claude-code', ?, ?, ?, ?, ?)`,
    ).run(
      sessionId, options.room ?? ROOM, options.kind ?? 'worker', name, `${name.toLowerCase()}-${sessionCounter}`, label,
      agentKey, now, now, now, options.ended ? now : null, options.ended ? 'person' : null,
    );
    return { kind: 'agent', label, agentKey, sessionId, displayName: name };
  }

  return { db, q: store.q, store, published, write: (fn) => store.write(fn), agent, person: { kind: 'person', label: 'Ada' } };
}

/** Every row of the tables task actions touch, plus the rooms' counters: equal snapshots mean nothing changed. */
export function snapshot(db: Db): string {
  const tables = ['rooms', 'tasks', 'task_leases', 'task_events', 'messages', 'room_artifacts', 'artifact_task_links', 'agent_sessions'];
  return JSON.stringify(tables.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).all()));
}

/** Texts of the system events posted in a room, oldest first. */
export function eventTexts(db: Db, roomId = ROOM): string[] {
  const rows = db
    .prepare("SELECT text FROM messages WHERE room_id = ? AND source = 'system' AND kind = 'event' ORDER BY number")
    .all(roomId) as { text: string }[];
  return rows.map((r) => r.text);
}

export function presenceOf(db: Db, sessionId: string): { status: string; status_text: string } {
  return db.prepare('SELECT status, status_text FROM agent_sessions WHERE session_id = ?').get(sessionId) as {
    status: string;
    status_text: string;
  };
}

export function leaseRows(db: Db, taskNumber: number, roomId = ROOM): { lease_id: string; kind: string; status: string; agent_key: string }[] {
  return db
    .prepare('SELECT lease_id, kind, status, agent_key FROM task_leases WHERE room_id = ? AND task_number = ? ORDER BY created_at, rowid')
    .all(roomId, taskNumber) as { lease_id: string; kind: string; status: string; agent_key: string }[];
}

/**
 * Runs a write that must be refused with `code` and exactly `phrase`, and checks that
 * nothing changed: no row, no counter, no presence, no published event.
 */
export async function expectRefused(world: World, fn: (tx: Tx) => Promise<unknown>, code: string, phrase: string): Promise<void> {
  const before = snapshot(world.db);
  const eventsBefore = world.published.length;
  const error = await failure(world, fn);
  expect({ code: error.code, message: error.message }).toEqual({ code, message: phrase });
  expect(snapshot(world.db)).toBe(before);
  expect(world.published.length).toBe(eventsBefore);
}

/** Runs a write expected to fail; returns its error. */
export async function failure(world: World, fn: (tx: Tx) => Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await world.write(fn);
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the write to fail');
}
