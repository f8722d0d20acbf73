// Opening a SQLite write transaction without blocking the event loop: BEGIN IMMEDIATE,
// and while another connection (another program) holds the write lock, retry
// asynchronously with backoff (10 ms rising to 250 ms), giving up after 5 s.
import { DatabaseBusyError } from '../storageErrors';
import type { Db } from './database';

export { DatabaseBusyError };

const BUSY_FIRST_DELAY_MS = 10;
const BUSY_MAX_DELAY_MS = 250;
const BUSY_GIVE_UP_MS = 5_000;

/** Runs BEGIN IMMEDIATE on `db`, waiting out SQLITE_BUSY; DatabaseBusyError after 5 s. */
export async function beginImmediate(db: Db): Promise<void> {
  const started = Date.now();
  let delay = BUSY_FIRST_DELAY_MS;
  for (;;) {
    try {
      db.exec('BEGIN IMMEDIATE');
      return;
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() - started + delay > BUSY_GIVE_UP_MS) throw new DatabaseBusyError();
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, BUSY_MAX_DELAY_MS);
    }
  }
}

export function isBusy(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
}
