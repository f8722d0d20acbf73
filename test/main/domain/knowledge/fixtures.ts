// Shared setup for the knowledge tests: a real in-memory store, a clock that ticks one
// second per write, rooms, actors, and raw task rows (the tasks domain is not needed here).
import { openDatabase } from '../../../../src/main/store/database';
import { Store } from '../../../../src/main/store/store';
import { EventBus } from '../../../../src/main/events/bus';
import type { CoreEvent } from '../../../../src/main/events/types';
import { insertRoomRow } from '../../../../src/main/store/rooms';
import { insertMessageRow } from '../../../../src/main/store/messageRows';
import type { AgentActor, PersonActor } from '../../../../src/main/domain/actor';

export const juniper: AgentActor = {
  kind: 'agent',
  label: "Juniper | Ada's agent | Claude Code",
  agentKey: 'ada/claude-code/juniper',
  sessionId: 'local_11111111-1111-4111-8111-111111111111',
  displayName: 'Juniper',
};

export const cedar: AgentActor = {
  kind: 'agent',
  label: "Cedar | Ada's agent | Codex",
  agentKey: 'ada/codex/cedar',
  sessionId: 'local_22222222-2222-4222-8222-222222222222',
  displayName: 'Cedar',
};

export const ada: PersonActor = { kind: 'person', label: 'Ada Lovelace' };

export function makeStore() {
  const bus = new EventBus();
  const events: CoreEvent[] = [];
  bus.onAny((e) => events.push(e));
  let tick = Date.parse('2026-05-01T09:00:00.000Z');
  const store = new Store(openDatabase(':memory:'), bus, () => new Date((tick += 1000)));
  return { store, db: store.db, events };
}

export async function addRoom(store: Store, roomId: string, options: { archived?: boolean } = {}) {
  await store.write((tx) => {
    insertRoomRow(tx, { roomId, kind: 'named', displayName: `Room ${roomId}` });
    if (options.archived) tx.db.prepare('UPDATE rooms SET archived_at = ? WHERE room_id = ?').run(tx.now, roomId);
  });
}

export function postAgentMessage(store: Store, roomId: string, text: string, extra: { threadRootNumber?: number } = {}) {
  return store.write((tx) =>
    insertMessageRow(tx, {
      roomId,
      kind: 'message',
      source: 'agent',
      sender: juniper.label,
      text,
      threadRootNumber: extra.threadRootNumber ?? null,
      replyToNumber: extra.threadRootNumber ?? null,
      publisherAgentKey: juniper.agentKey,
      publisherSessionId: juniper.sessionId,
    }),
  );
}

export function postPersonMessage(store: Store, roomId: string, text: string, extra: { threadRootNumber?: number } = {}) {
  return store.write((tx) =>
    insertMessageRow(tx, {
      roomId,
      kind: 'message',
      source: 'human',
      sender: ada.label,
      text,
      threadRootNumber: extra.threadRootNumber ?? null,
    }),
  );
}

/** Inserts a task row directly in `status`, or moves an existing one there. */
export function putTask(store: Store, roomId: string, number: number, status: string, title = `Task ${number}`) {
  return store.write((tx) => {
    tx.db
      .prepare(
        `INSERT INTO tasks (room_id, number, status, title, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (room_id, number) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
      )
      .run(roomId, number, status, title, juniper.label, tx.now, tx.now);
  });
}

/** Every row of a table, for "the database is unchanged" checks. */
export function snapshot(store: Store, ...tables: string[]) {
  return tables.map((t) => store.db.prepare(`SELECT * FROM ${t}`).all());
}

export const countRows = (store: Store, table: string) =>
  (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
