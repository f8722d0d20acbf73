// Shared setup for the knowledge tests: a real in-memory store, a clock that ticks one
// second per write, rooms, actors, and raw task rows (the tasks domain is not needed here).
import { openTestStorage, type TestStorage } from '../../../support/storage';
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

/** A store whose clock moves `tickMs` at each read (0: every write in one millisecond). */
export function makeStore({ tickMs = 1000 } = {}) {
  let tick = Date.parse('2026-05-01T09:00:00.000Z');
  const { store, events } = openTestStorage({ clock: () => new Date((tick += tickMs)) });
  return { store, db: store.db, q: store.q, events };
}

export async function addRoom(store: TestStorage, roomId: string, options: { archived?: boolean } = {}) {
  await store.write(async (tx) => {
    await insertRoomRow(tx, { roomId, kind: 'named', displayName: `Room ${roomId}` });
    if (options.archived) await tx.run('UPDATE rooms SET archived_at = ? WHERE room_id = ?', tx.now, roomId);
  });
}

export function postAgentMessage(store: TestStorage, roomId: string, text: string, extra: { threadRootNumber?: number } = {}) {
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

export function postPersonMessage(store: TestStorage, roomId: string, text: string, extra: { threadRootNumber?: number } = {}) {
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
export function putTask(store: TestStorage, roomId: string, number: number, status: string, title = `Task ${number}`) {
  return store.write(async (tx) => {
    await tx.run(
      `INSERT INTO tasks (room_id, number, status, title, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (room_id, number) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at`,
      roomId, number, status, title, juniper.label, tx.now, tx.now,
    );
  });
}

/** Every row of a table, for "the database is unchanged" checks. */
export function snapshot(store: TestStorage, ...tables: string[]) {
  return tables.map((t) => store.db.prepare(`SELECT * FROM ${t}`).all());
}

export const countRows = (store: TestStorage, table: string) =>
  (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
