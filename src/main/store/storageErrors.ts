// Expected storage failures both adapters report the same way, so the domain, MCP and the
// app API never look at an engine's own error codes. The store reports its own errors (it
// sits below the domain); the domain takes a StorageError as one of its expected failures
// (domain/errors.ts isDomainError), so MCP and the API report it like a DomainError.

/**
 * An expected storage failure: a code of the error catalogue (mcp-tools.md §2.6), its
 * phrase, and whether MCP reports it soft or hard — the shape of the domain's errors.
 */
export class StorageError extends Error {
  constructor(
    readonly code: string,
    readonly kind: 'soft' | 'hard',
    phrase: string,
    readonly hint?: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(phrase);
    this.name = 'StorageError';
  }
}

/**
 * This computer's database stayed locked by another program (SQLITE_BUSY for 5 s). An
 * expected failure with a clear phrase, so both MCP (hard error) and the app API
 * ({ok:false, error:{code:"database_busy"}}) pass it on instead of an internal error.
 */
export class DatabaseBusyError extends StorageError {
  constructor() {
    super('database_busy', 'hard', 'The database is locked by another program and stayed locked for 5 seconds. Close the other program and try again.');
    this.name = 'DatabaseBusyError';
  }
}

/**
 * A team's database could not be reached. Nothing of the failed write was stored (an open
 * transaction dies with its connection); the adapter keeps reconnecting in the background.
 */
export class TeamOfflineError extends StorageError {
  constructor(readonly place: string, readonly reason: string) {
    super(
      'team_offline',
      'hard',
      `The team "${place}" is offline (${reason}). Nothing was written; LetAgents is reconnecting, try again shortly.`,
    );
    this.name = 'TeamOfflineError';
  }
}

/**
 * The connection broke while COMMIT was on its way: PostgreSQL may or may not have stored
 * the write. Never reported as success, so nothing unconfirmed is acknowledged.
 */
export class TeamCommitUnknownError extends StorageError {
  constructor(readonly place: string, reason: string) {
    super(
      'team_offline',
      'hard',
      `The team "${place}" went offline while saving (${reason}); the change may or may not have been stored. ` +
        'Check before repeating it.',
    );
    this.name = 'TeamCommitUnknownError';
  }
}

/** A team database set up by a newer app: this app reads nothing wrong into it and writes nothing. */
export class SchemaTooNewError extends StorageError {
  constructor(readonly place: string, readonly found: number, readonly supported: number) {
    super(
      'update_required',
      'hard',
      `The team "${place}" database was set up by a newer version of LetAgents (schema ${found}; this app knows ${supported}). ` +
        'Update the app to write to it. Nothing was written.',
    );
    this.name = 'SchemaTooNewError';
  }
}

/** A write that kept failing because other machines changed the same rows at the same time. */
export class WriteConflictError extends StorageError {
  constructor(readonly place: string, attempts: number) {
    super(
      'write_conflict',
      'hard',
      `The team "${place}" was too busy: the change conflicted with others ${attempts} times in a row. Nothing was written; try again.`,
    );
    this.name = 'WriteConflictError';
  }
}

/** A UNIQUE constraint refused a statement; the same shape from both engines. */
export class UniqueViolationError extends Error {
  constructor(readonly table: string, readonly columns: readonly string[], cause: unknown) {
    super(`UNIQUE constraint failed: ${table} (${columns.join(', ')})`, { cause });
    this.name = 'UniqueViolationError';
  }
}

/** True when `error` is a unique violation on `table` that involves `column`. */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  return error instanceof UniqueViolationError && error.table === table && error.columns.includes(column);
}
