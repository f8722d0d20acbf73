// What the team tests share: whether the real keychain and PostgreSQL are here (in CI they
// must be), team names of this test process only (one private keyring serves every test
// file of a run), and reading what the app kept in the keychain and in the settings table.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AsyncEntry } from '@napi-rs/keyring';
import { EventBus } from '../../src/main/events/bus';
import { prepareDataFolder } from '../../src/main/store/dataFolder';
import { SqliteStorage } from '../../src/main/store/sqlite/sqliteStorage';
import { teamSettingsIn } from '../../src/main/teams/teamSettings';
import { KEYCHAIN_SERVICE } from '../../src/main/secrets/secretStore';
import { teamKeychainAccount } from '../../src/main/teams/teamNames';
import { inCi, runPostgresSuites } from './postgres';

/** `npm test` runs the tests inside a private D-Bus session with an unlocked gnome-keyring. */
export const keychainReady = process.env.LETAGENTS_TEST_KEYRING === '1';
/** Team suites need both; in CI they run regardless, so a missing part fails. */
export const runTeamSuites = (keychainReady && runPostgresSuites) || inCi;

/** The team of the cross-machine tests and benchmarks (test/support/teamMachines.ts, bench/lib/team.ts). */
export const TEAM = 'acme';

/** The environment an app of that team runs with: its URL, as a headless host gives it. */
export const teamEnv = (url: string): Record<string, string> => ({ LETAGENTS_TEAM_URL_ACME: url });

/** A team name no other test file of this run uses. */
export function uniqueTeamName(prefix: string): string {
  return `${prefix}-${process.pid}-${randomBytes(6).toString('hex')}`;
}

/** The URL the app keeps for `team` in the OS keychain (service "LetAgents Desktop"), or null. */
export async function keychainUrl(team: string): Promise<string | null> {
  return (await new AsyncEntry(KEYCHAIN_SERVICE, teamKeychainAccount(team), { linux: { store: 'secret-service' } }).getPassword()) ?? null;
}

/** Every settings row of the data folder's database, as text ('' when there is no database). */
export function settingsText(dataDir: string): string {
  const path = join(dataDir, 'letagents.db');
  if (!existsSync(path)) return '';
  const db = new Database(path, { readonly: true });
  try {
    return JSON.stringify(db.prepare('SELECT key, value FROM settings ORDER BY key').all());
  } finally {
    db.close();
  }
}

/** Makes `team` the default place of the data folder's app (as `letagents-desktop team default` does), creating the folder if needed. */
export async function setDefaultPlace(dataDir: string, team: string): Promise<void> {
  prepareDataFolder(dataDir);
  const store = new SqliteStorage({ path: join(dataDir, 'letagents.db'), bus: new EventBus() });
  try {
    await teamSettingsIn(store).update((current) => ({ next: { ...current, defaultPlace: team }, result: undefined }));
  } finally {
    await store.close();
  }
}
