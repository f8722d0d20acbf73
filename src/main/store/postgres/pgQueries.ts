// The port's queries on PostgreSQL: `?` placeholders numbered, values parsed like SQLite's
// (pgTypes; rows holding an integer beyond 2^53 left out, uncountable.ts), unique violations in
// the port's shape; PgTx tracks the first failed statement, because PostgreSQL aborts the whole
// transaction at any failed statement outside a savepoint.
import type pg from 'pg';
import type { Queryable, RunResult, SqlValue, Tx } from '../port';
import type { CommitEffects } from '../writeQueue';
import { isSerializationFailure, portError } from './pgErrors';
import { toNumberedPlaceholders } from './placeholders';
import { postgresDialect } from './postgresDialect';
import type { UncountableRows } from './uncountable';

type Exec = (text: string, values: SqlValue[]) => Promise<pg.QueryResult>;

export class PgQueryable implements Queryable {
  readonly dialect = postgresDialect;

  constructor(
    private readonly exec: Exec,
    private readonly uncountable: UncountableRows,
  ) {}

  async get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }

  async all<T>(sql: string, ...params: SqlValue[]): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async run(sql: string, ...params: SqlValue[]): Promise<RunResult> {
    return { changes: (await this.query(sql, params)).rowCount ?? 0 };
  }

  protected async query(sql: string, params: SqlValue[]): Promise<pg.QueryResult> {
    let result: pg.QueryResult;
    try {
      result = await this.exec(toNumberedPlaceholders(sql), params);
    } catch (error) {
      throw portError(error);
    }
    result.rows = this.uncountable.keep(result.rows);
    return result;
  }
}

/** A write's queries on its checked-out client, inside BEGIN … COMMIT. */
export class PgTx extends PgQueryable implements Tx {
  readonly emit: Tx['emit'];
  readonly afterCommit: Tx['afterCommit'];
  /** The first statement that failed outside a savepoint: the transaction can only roll back. */
  poisoned: unknown = undefined;
  private open = true;
  private depth = 0;
  private savepoints = 0;

  constructor(private readonly client: pg.ClientBase, readonly now: string, effects: CommitEffects, uncountable: UncountableRows) {
    super((text, values) => this.raw(text, values), uncountable);
    this.emit = effects.emit;
    this.afterCommit = effects.afterCommit;
  }

  end(): void {
    this.open = false;
  }

  async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepoints}`;
    await this.raw(`SAVEPOINT ${name}`, []);
    this.depth++;
    let value: T;
    try {
      value = await fn();
    } catch (error) {
      this.depth--;
      // A serialization failure dooms the transaction even after ROLLBACK TO: retry it whole.
      if (isSerializationFailure((error as { cause?: unknown }).cause ?? error)) this.poisoned ??= error;
      await this.raw(`ROLLBACK TO SAVEPOINT ${name}`, []);
      await this.raw(`RELEASE SAVEPOINT ${name}`, []);
      throw error;
    }
    this.depth--;
    await this.raw(`RELEASE SAVEPOINT ${name}`, []);
    return value;
  }

  private async raw(text: string, values: SqlValue[]): Promise<pg.QueryResult> {
    // A query started after COMMIT would run outside any transaction: refuse it loudly.
    if (!this.open) throw new Error('This write has ended; a query ran after it (a missing await?).');
    try {
      return await this.client.query(text, values);
    } catch (error) {
      if (this.depth === 0) this.poisoned ??= error;
      throw error;
    }
  }
}
