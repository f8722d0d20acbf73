// Test helpers for rooms and messages: a real in-memory store with a ticking clock, the
// events it published, sample actors, and a full snapshot of the database's contents.
import type { Db } from '../../../../src/main/store/sqlite/database';
import type { Queryable, Tx } from '../../../../src/main/store/port';
import type { CoreEvent } from '../../../../src/main/events/types';
import { openTestStorage, type TestStorage } from '../../../support/storage';
import type { AgentActor, PersonActor } from '../../../../src/main/domain/actor';
import { ensureRoom } from '../../../../src/main/domain/rooms/rooms';
import { sendMessage, type SendMessageInput } from '../../../../src/main/domain/messages/send';

export interface TestStore {
  store: TestStorage;
  /** A raw connection on the store's file (snapshots). */
  db: Db;
  /** Committed reads through the port, for the domain's read functions. */
  q: Queryable;
  events: CoreEvent[];
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export function makeStore(): TestStore {
  let t = Date.parse('2026-05-01T09:30:00.000Z');
  const { store, events } = openTestStorage({ clock: () => new Date((t += 1000)) });
  return { store, db: store.db, q: store.q, events, write: (fn) => store.write(fn) };
}

export const ada: PersonActor = { kind: 'person', label: 'Ada' };

export function agent(name: string): AgentActor {
  return {
    kind: 'agent',
    label: `${name} | Ada's agent | Claude Code`,
    agentKey: `key_${name.toLowerCase()}`,
    sessionId: `local_${name.toLowerCase()}`,
    displayName: name,
  };
}

export async function namedRoom(t: TestStore, roomId = 'team'): Promise<string> {
  await t.write((tx) => ensureRoom(tx, { roomId, kind: 'named' }));
  return roomId;
}

/** Posts as Ada unless another author is given; returns the new number. */
export function post(t: TestStore, roomId: string, text: string, extra: Partial<SendMessageInput> = {}): Promise<number> {
  return t.write((tx) => sendMessage(tx, { roomId, author: ada, text, ...extra }));
}

/**
 * Every row of every table, so a test can prove a failed write changed nothing. FTS5's
 * internal segment tables are left out (their layout depends on history, not content);
 * search tests check the index through searching.
 */
export function snapshot(db: Db): string {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'messages\\_fts\\_%' ESCAPE '\\' ORDER BY name")
    .pluck()
    .all() as string[];
  const out: Record<string, unknown[]> = {};
  for (const table of tables) out[table] = db.prepare(`SELECT * FROM "${table}"`).all();
  return JSON.stringify(out);
}
