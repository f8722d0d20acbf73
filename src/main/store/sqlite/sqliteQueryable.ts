// The port's queries over one better-sqlite3 connection: statements compiled once and
// kept per SQL text, results handed back as already-settled promises, and SQLite's
// UNIQUE errors reported in the port's shape.
import Database from 'better-sqlite3';
import type { Db } from './database';
import type { Dialect, Queryable, RunResult, SqlValue } from '../port';
import { UniqueViolationError } from '../storageErrors';

/** Statements kept compiled per connection; SQL built with values inside (it should not be) is not cached past this. */
const STATEMENT_CACHE_LIMIT = 1_000;
const compile = Database.prototype.prepare;

export class SqliteQueryable implements Queryable {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Db, readonly dialect: Dialect) {}

  get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    try {
      return Promise.resolve(this.statement(sql).get(...params) as T | undefined);
    } catch (error) {
      return Promise.reject(portError(error));
    }
  }

  all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    try {
      return Promise.resolve(this.statement(sql).all(...params) as T[]);
    } catch (error) {
      return Promise.reject(portError(error));
    }
  }

  run(sql: string, ...params: SqlValue[]): Promise<RunResult> {
    try {
      return Promise.resolve({ changes: this.statement(sql).run(...params).changes });
    } catch (error) {
      return Promise.reject(portError(error));
    }
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      // The prototype's prepare, not the connection's caching wrapper (database.ts): this
      // cache hands statements out without resetting their row mode, which nothing here changes.
      statement = compile.call(this.db, planStable(sql)) as Database.Statement;
      if (this.statements.size < STATEMENT_CACHE_LIMIT) this.statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * The SQL with its parameters hidden from SQLite's planner where it would plan around their
 * values. SQLite (this build has SQLITE_ENABLE_STAT4) marks a statement for a full re-compile
 * on every new binding of a `LIMIT ?`, and of a `col = ?` in a query that orders rows: a kept
 * statement was compiled again on each run (a wait's page read, a worker's room lookup), with
 * a new row builder for its results each time. No plan here depends on those values, and
 * `= +?` and `LIMIT ? + 0` compare and count exactly like `= ?` and `LIMIT ?` (unary plus is a
 * no-op; the column's affinity and collation still apply), so the statement is compiled once.
 * Quoted literals are left alone.
 */
export function planStable(sql: string): string {
  return sql
    .split(/('(?:[^']|'')*')/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/(^|[^<>!=])=\s*\?/g, '$1= +?').replace(/\b(LIMIT|OFFSET)\s+\?/gi, '$1 ? + 0')))
    .join('');
}

// "UNIQUE constraint failed: agent_sessions.room_id, agent_sessions.name_key"
const UNIQUE_MESSAGE = /^UNIQUE constraint failed: (.+)$/;

function portError(error: unknown): unknown {
  const e = error as { code?: string; message?: string } | null;
  if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return error;
  const match = UNIQUE_MESSAGE.exec(e.message ?? '');
  if (!match) return error;
  const qualified = match[1].split(',').map((c) => c.trim());
  const table = qualified[0].split('.')[0];
  return new UniqueViolationError(table, qualified.map((c) => c.slice(c.indexOf('.') + 1)), error);
}
