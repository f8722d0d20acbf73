// Explaining a figure: time one query straight on the database file (a read-only
// connection beside the running app), so a note can say where the time goes.
import Database from 'better-sqlite3';
import { databasePath } from '../../src/main/paths';
import type { Db } from '../../src/main/store/database';
import { summarize } from './stats';

/** Opens `<dataDir>/letagents.db` read-only for `fn`, then closes it. */
export function withReadOnlyDb<T>(dataDir: string, fn: (db: Db) => T): T {
  const db = new Database(databasePath(dataDir), { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Median milliseconds of `fn` over `runs` calls, after one warm-up call. */
export function medianMs(fn: () => unknown, runs = 5): number {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return summarize(samples).median;
}
