// createCore: composes store, events and the domain services. It never imports
// electron, so it runs in the Electron main process, in `serve` and in tests alike.
import { chmodSync } from 'node:fs';
import { EventBus } from './events/bus';
import { prepareDataFolder } from './store/dataFolder';
import { SqliteStorage } from './store/sqlite/sqliteStorage';
import { databasePath } from './paths';

export interface CoreOptions {
  /** Folder for letagents.db, the agent socket and agent-token. ':memory:' keeps the database in a private temporary file. */
  dataDir: string;
  /** Clock for timestamps; tests inject one. */
  clock?: () => Date;
}

export interface Core {
  readonly dataDir: string;
  /** This computer's place ('local'): the SQLite file behind the storage port. */
  readonly store: SqliteStorage;
  readonly bus: EventBus;
  close(): Promise<void>;
}

function chmodQuietly(path: string): void {
  try {
    chmodSync(path, 0o600);
  } catch {
    // -wal and -shm exist only while the database is open in WAL mode.
  }
}

export function createCore(options: CoreOptions): Core {
  const inMemory = options.dataDir === ':memory:';
  if (!inMemory) {
    // Refuses a folder it may not write before anything is created in it.
    prepareDataFolder(options.dataDir);
  }
  const bus = new EventBus();
  const store = new SqliteStorage({ path: inMemory ? ':memory:' : databasePath(options.dataDir), bus, clock: options.clock });
  // The folder is already private; the files are too, in case it is ever moved or shared.
  if (!inMemory) for (const suffix of ['', '-wal', '-shm']) chmodQuietly(databasePath(options.dataDir) + suffix);
  let closing: Promise<void> | undefined;
  return {
    dataDir: options.dataDir,
    store,
    bus,
    close: () => (closing ??= store.close()),
  };
}
