// Key/value settings (GitHub client id, theme, notifications, host id, …).
import type { Queryable, Tx } from './port';

export async function getSetting(q: Queryable, key: string): Promise<string | null> {
  const row = await q.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', key);
  return row?.value ?? null;
}

export async function setSetting(tx: Tx, key: string, value: string | null): Promise<void> {
  if (value === null) {
    await tx.run('DELETE FROM settings WHERE key = ?', key);
    return;
  }
  await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', key, value);
}

/** Stores `value` unless the key exists; returns the stored value. */
export async function ensureSetting(tx: Tx, key: string, value: string): Promise<string> {
  await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', key, value);
  return (await getSetting(tx, key)) ?? value;
}

/** Every setting whose key starts with `prefix`, by key (at most `limit`). */
export function listSettingsWithPrefix(q: Queryable, prefix: string, limit: number): Promise<Array<{ key: string; value: string }>> {
  return q.all<{ key: string; value: string }>(
    'SELECT key, value FROM settings WHERE substr(key, 1, ?) = ? ORDER BY key LIMIT ?',
    prefix.length, prefix, limit,
  );
}
