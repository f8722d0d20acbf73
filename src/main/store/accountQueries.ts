// The cached GitHub account (one row, never the token) and the GitHub OAuth client id
// setting. The token itself lives only in the OS keychain (data-model.md §7).
import type { Queryable, Tx } from './port';
import { getSetting, setSetting } from './settingsQueries';

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

export function getAccountRow(q: Queryable): Promise<AccountRow | undefined> {
  return q.get<AccountRow>(
    'SELECT github_id, login, display_name, avatar_url, expires_at, updated_at FROM account WHERE id = 1',
  );
}

/** Replaces the cached account (there is at most one). */
export async function saveAccountRow(tx: Tx, account: CachedAccount): Promise<void> {
  await tx.run(
    `INSERT INTO account (id, github_id, login, display_name, avatar_url, expires_at, updated_at)
       VALUES (1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET github_id = excluded.github_id, login = excluded.login,
         display_name = excluded.display_name, avatar_url = excluded.avatar_url,
         expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
    account.githubId, account.login, account.displayName, account.avatarUrl, account.expiresAt, tx.now,
  );
}

/** Forgets the cached account; true when there was one. */
export async function deleteAccountRow(tx: Tx): Promise<boolean> {
  return (await tx.run('DELETE FROM account WHERE id = 1')).changes > 0;
}

export function getGitHubClientIdSetting(q: Queryable): Promise<string | null> {
  return getSetting(q, GITHUB_CLIENT_ID_SETTING);
}

/** Sets the client id, or removes it with null. */
export function setGitHubClientIdSetting(tx: Tx, clientId: string | null): Promise<void> {
  return setSetting(tx, GITHUB_CLIENT_ID_SETTING, clientId);
}
