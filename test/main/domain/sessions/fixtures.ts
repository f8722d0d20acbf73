// Test fixtures for sessions: a real in-memory store with rooms, a controllable clock,
// the events published after each commit, and helpers to register workers.
import { openTestStorage, type TestStorage } from '../../../support/storage';
import type { CoreEvent } from '../../../../src/main/events/types';
import { insertRoomRow } from '../../../../src/main/store/rooms';
import { findOrCreateWorker, type NewWorker } from '../../../../src/main/domain/sessions/workers';
import { openWorkerSession, type SessionRow } from '../../../../src/main/domain/sessions/sessions';

export const ADA = { ownerLabel: 'Ada', ownerSlug: 'ada', ideLabel: 'Claude Code' } as const;

export interface Fixture {
  store: TestStorage;
  events: CoreEvent[];
  advance(ms: number): void;
  /** Every row of the tables this area writes, to prove a failed write changed nothing. */
  snapshot(): unknown;
  messages(roomId: string): Array<{ number: number; kind: string; source: string; sender: string; text: string; publisher_agent_key: string | null }>;
}

export async function makeFixture(rooms: string[] = ['R']): Promise<Fixture> {
  let now = Date.parse('2026-05-01T09:30:00.000Z');
  const { store, events } = openTestStorage({ clock: () => new Date(now) });
  await store.write(async (tx) => {
    for (const roomId of rooms) await insertRoomRow(tx, { roomId, kind: 'named', displayName: `Room ${roomId}` });
  });
  events.length = 0;
  const all = (table: string) => store.db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
  return {
    store,
    events,
    advance: (ms) => (now += ms),
    snapshot: () => ({ workers: all('workers'), sessions: all('agent_sessions'), messages: all('messages'), rooms: all('rooms') }),
    messages: (roomId) =>
      store.db
        .prepare('SELECT number, kind, source, sender, text, publisher_agent_key FROM messages WHERE room_id = ? ORDER BY number')
        .all(roomId) as ReturnType<Fixture['messages']>,
  };
}

/** A chat registering with `key` (and optionally a name) in `roomId`, as register_agent_session does. */
export async function register(
  fx: Fixture,
  key: string,
  roomId: string,
  requestedName?: string | null,
  labels: Partial<Omit<NewWorker, 'registrationKey' | 'requestedName'>> = {},
): Promise<SessionRow & { worker_id: string }> {
  const { session } = await fx.store.write(async (tx) => {
    const { worker } = await findOrCreateWorker(tx, { registrationKey: key, requestedName, ...ADA, ...labels });
    return openWorkerSession(tx, { worker, roomId, repoBranch: 'main' });
  });
  return session as SessionRow & { worker_id: string };
}
