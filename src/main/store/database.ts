// Opens the app's SQLite file: pragmas, migrations inside transactions, and the refusal
// of a database written by a newer app version (which is left untouched).
import Database from 'better-sqlite3';
import { SCHEMA_VERSION, migrations } from './migrations';

export type Db = Database.Database;

export class DatabaseVersionError extends Error {
  constructor(readonly found: number, readonly supported: number) {
    super(
      `This database was written by a newer version of LetAgents (schema ${found}; this app knows ${supported}). ` +
        'Update the app to open it. The file was not modified.',
    );
    this.name = 'DatabaseVersionError';
  }
}

export class DatabaseOpenError extends Error {
  constructor(readonly path: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`Cannot open the database at ${path}: ${detail}. The file was not modified.`, { cause });
    this.name = 'DatabaseOpenError';
  }
}

/** Opens (creating if needed) and migrates the database at `path` (or ':memory:'). */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Db {
  let db: Db;
  try {
    db = new Database(path, { readonly: options.readonly ?? false, timeout: 0 });
  } catch (error) {
    throw new DatabaseOpenError(path, error);
  }
  try {
    // Read the version before touching anything: a newer database must stay byte-identical.
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw new DatabaseVersionError(version, SCHEMA_VERSION);
    // A damaged file is refused before anything below (WAL mode, migrations) writes to it.
    const check = db.pragma('quick_check(1)', { simple: true }) as string;
    if (check !== 'ok') throw new Error(`the file is damaged (SQLite quick_check: ${check})`);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 0');
    if (!options.readonly) migrate(db, version);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof DatabaseVersionError) throw error;
    throw new DatabaseOpenError(path, error);
  }
}

function migrate(db: Db, from: number): void {
  for (let version = from + 1; version <= SCHEMA_VERSION; version++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migrations[version - 1]);
      db.pragma(`user_version = ${version}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}
