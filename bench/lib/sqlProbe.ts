// Explaining a figure: time one query straight on the database file (a read-only
// connection beside the running app), so a note can say where the time goes.
import Database from 'better-sqlite3';
import { databasePath } from '../../src/main/paths';
import type { Queryable } from '../../src/main/store/port';
import type { Db } from '../../src/main/store/sqlite/database';
import { sqliteDialect } from '../../src/main/store/sqlite/sqliteDialect';
import { SqliteQueryable } from '../../src/main/store/sqlite/sqliteQueryable';
import { summarize } from './stats';

/** Opens `<dataDir>/letagents.db` read-only for `fn` (as the port's queries and as the raw connection), then closes it. */
export async function withReadOnlyDb<T>(dataDir: string, fn: (q: Queryable, db: Db) => Promise<T>): Promise<T> {
  const db = new Database(databasePath(dataDir), { readonly: true });
  try {
    return await fn(new SqliteQueryable(db, sqliteDialect), db);
  } finally {
    db.close();
  }
}

/** Median milliseconds of `fn` over `runs` calls, after one warm-up call. */
export async function medianMs(fn: () => unknown, runs = 5): Promise<number> {
  await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return summarize(samples).median;
}
