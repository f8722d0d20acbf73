// The cached GitHub account (one row, never the token) and the GitHub OAuth client id
// setting. The token itself lives only in the OS keychain (data-model.md §7).
import type { Db } from './database';
import type { Tx } from './store';

export interface AccountRow {
  github_id: number | null;
  login: string;
  display_name: string | null;
  avatar_url: string | null;
  expires_at: string | null;
  updated_at: string;
}

export interface CachedAccount {
  githubId: number | null;
  login: string;
  displayName: string | null;
  avatarUrl: string | null;
  /** When the GitHub token expires; null for tokens that do not expire. */
  expiresAt: string | null;
}

/** The settings key of the GitHub OAuth App client id the person configured in the app. */
export const GITHUB_CLIENT_ID_SETTING = 'github.client_id';

export function getAccountRow(db: Db): AccountRow | undefined {
  return db
    .prepare('SELECT github_id, login, display_name, avatar_url, expires_at, updated_at FROM account WHERE id = 1')
    .get() as AccountRow | undefined;
}

/** Replaces the cached account (there is at most one). */
export function saveAccountRow(tx: Tx, account: CachedAccount): void {
  tx.db
    .prepare(
      `INSERT INTO account (id, github_id, login, display_name, avatar_url, expires_at, updated_at)
       VALUES (1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET github_id = excluded.github_id, login = excluded.login,
         display_name = excluded.display_name, avatar_url = excluded.avatar_url,
         expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
    )
    .run(account.githubId, account.login, account.displayName, account.avatarUrl, account.expiresAt, tx.now);
}

/** Forgets the cached account; true when there was one. */
export function deleteAccountRow(tx: Tx): boolean {
  return tx.db.prepare('DELETE FROM account WHERE id = 1').run().changes > 0;
}

export function getGitHubClientIdSetting(db: Db): string | null {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(GITHUB_CLIENT_ID_SETTING) as { value: string } | undefined;
  return row?.value ?? null;
}

/** Sets the client id, or removes it with null. */
export function setGitHubClientIdSetting(tx: Tx, clientId: string | null): void {
  if (clientId === null) {
    tx.db.prepare('DELETE FROM settings WHERE key = ?').run(GITHUB_CLIENT_ID_SETTING);
    return;
  }
  tx.db
    .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
    .run(GITHUB_CLIENT_ID_SETTING, clientId);
}
