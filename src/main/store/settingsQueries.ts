// Key/value settings (GitHub client id, theme, notifications, host id, …).
import type { Db } from './database';
import type { Tx } from './store';

export function getSetting(db: Db, key: string): string | null {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setSetting(tx: Tx, key: string, value: string | null): void {
  if (value === null) tx.db.prepare('DELETE FROM settings WHERE key = ?').run(key);
  else tx.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Start-up only (before any write is queued): stores `value` unless the key exists; returns the stored value. */
export function ensureSetting(db: Db, key: string, value: string): string {
  db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, value);
  return getSetting(db, key) ?? value;
}
