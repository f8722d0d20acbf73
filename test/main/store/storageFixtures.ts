// Opening either adapter of the storage port for tests, with the events it published, and
// a few rows written in portable SQL the way the store's query modules will write them.
import { EventBus } from '../../../src/main/events/bus';
import type { CoreEvent } from '../../../src/main/events/types';
import type { Queryable, Storage, Tx } from '../../../src/main/store/port';
import { SqliteStorage } from '../../../src/main/store/sqlite/sqliteStorage';
import { PostgresStorage } from '../../../src/main/store/postgres/postgresStorage';
import { afterAll, afterEach } from 'vitest';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../support/postgres';

export interface Opened<S extends Storage = Storage> {
  storage: S;
  events: CoreEvent[];
  /** The bus the storage publishes its commits on. */
  bus: EventBus;
}

function recordingBus(): { bus: EventBus; events: CoreEvent[] } {
  const bus = new EventBus();
  const events: CoreEvent[] = [];
  bus.onAny((e) => events.push(e));
  return { bus, events };
}

export function openSqlite(path = ':memory:'): Opened<SqliteStorage> {
  const { bus, events } = recordingBus();
  return { storage: new SqliteStorage({ path, bus }), events, bus };
}

/** A team storage on `url` (a fresh database of the test's cluster), connected and migrated. */
export async function openPostgres(url: string, place = 'acme'): Promise<Opened<PostgresStorage>> {
  const { bus, events } = recordingBus();
  const storage = new PostgresStorage({ place, url, bus });
  await storage.ready();
  return { storage, events, bus };
}

export async function openPostgresOn(cluster: PgCluster): Promise<Opened<PostgresStorage>> {
  return openPostgres(await cluster.createDatabase());
}

/** The engines a suite runs on, by name, each opening a fresh storage. */
export type Engines = Array<[name: string, open: () => Promise<Opened>]>;

/**
 * SQLite, and PostgreSQL on one throwaway cluster per file where the machine has one (with
 * CI=true a missing one fails). Call at a test file's top level: it closes what each test
 * opened and stops the cluster at the end. `prepare(name)` in a suite's `beforeAll` starts
 * the cluster there, so starting it is not charged to the first test's time.
 */
export function storageEngines(): { engines: Engines; prepare(name: string): Promise<void> } {
  let cluster: PgCluster | null = null;
  const opened: Storage[] = [];
  const kept = async (opening: Promise<Opened>): Promise<Opened> => {
    const result = await opening;
    opened.push(result.storage);
    return result;
  };
  const engines: Engines = [['SQLite', () => kept(Promise.resolve(openSqlite()))]];
  if (runPostgresSuites) engines.push(['PostgreSQL', async () => kept(openPostgresOn((cluster ??= await startPostgres())))]);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  afterAll(() => cluster?.stop());
  return {
    engines,
    async prepare(name) {
      if (name === 'PostgreSQL') cluster ??= await startPostgres();
    },
  };
}

export async function addRoom(tx: Tx, roomId: string): Promise<void> {
  await tx.run(
    'INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    roomId, 'named', roomId, tx.now, tx.now,
  );
}

/** Takes the room's next message number and inserts the message, as insertMessageRow does. */
export async function addMessage(
  tx: Tx,
  roomId: string,
  text: string,
  extra: { sender?: string; agentPromptKind?: 'auto' | null } = {},
): Promise<number> {
  const row = await tx.get<{ n: number }>(
    'UPDATE rooms SET next_message_number = next_message_number + 1 WHERE room_id = ? RETURNING next_message_number - 1 AS n',
    roomId,
  );
  const number = row!.n;
  await tx.run(
    `INSERT INTO messages (room_id, number, kind, source, sender, text, agent_prompt_kind, created_at)
     VALUES (?, ?, 'message', 'human', ?, ?, ?, ?)`,
    roomId, number, extra.sender ?? 'Ada', text, extra.agentPromptKind ?? null, tx.now,
  );
  tx.emit({ type: 'message.created', roomId, number });
  return number;
}

export async function messageNumbers(q: Queryable, roomId: string): Promise<number[]> {
  const rows = await q.all<{ number: number }>('SELECT number FROM messages WHERE room_id = ? ORDER BY number', roomId);
  return rows.map((r) => r.number);
}

/** A promise and its resolver, to hold a write open while a test looks from outside. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
