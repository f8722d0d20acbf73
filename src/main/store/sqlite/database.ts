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
    // A damaged file is refused before anything below writes to it. A full quick_check reads
    // the whole file (seconds for a million messages), so it runs only when this open is
    // about to write (a migration, or the switch to WAL); otherwise every table's root page
    // is read, which catches a damaged or truncated file at a cost independent of its size.
    // `letagents-desktop doctor` runs the full check on demand.
    const willWrite = !options.readonly && (version < SCHEMA_VERSION || db.pragma('journal_mode', { simple: true }) !== 'wal');
    if (willWrite) assertIntact(db);
    else assertTablesReadable(db);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 0');
    if (!options.readonly) migrate(db, version);
    cacheStatements(db);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof DatabaseVersionError) throw error;
    throw new DatabaseOpenError(path, error);
  }
}

/** Statements kept compiled; SQL built with values inside (it should not be) is not cached past this. */
const STATEMENT_CACHE_LIMIT = 1_000;

/**
 * Compiling a statement costs more than running most of ours, and the hot paths (a message
 * write, a page read, a wait's routing) prepare the same SQL every time: keep each compiled
 * statement. A cached statement is handed out with its row mode reset, so one caller's
 * .pluck() or .raw() never changes what the next caller gets.
 */
function cacheStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    const cached = cache.get(sql);
    if (cached && !cached.busy) {
      if (cached.reader) cached.pluck(false).raw(false).expand(false);
      return cached;
    }
    const statement = compile(sql);
    if (!cached && cache.size < STATEMENT_CACHE_LIMIT) cache.set(sql, statement);
    return statement;
  }) as Db['prepare'];
}

/** The full check (reads every page): throws when SQLite finds damage. */
export function assertIntact(db: Db): void {
  const check = db.pragma('quick_check(1)', { simple: true }) as string;
  if (check !== 'ok') throw new Error(`the file is damaged (SQLite quick_check: ${check})`);
}

/** Reads the first row of every table, which touches each table's root page. */
function assertTablesReadable(db: Db): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND rootpage > 0")
    .pluck()
    .all() as string[];
  // NOT INDEXED: read the table itself, not a smaller index that happens to cover the query.
  for (const table of tables) db.prepare(`SELECT * FROM "${table.replace(/"/g, '""')}" NOT INDEXED LIMIT 1`).get();
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
