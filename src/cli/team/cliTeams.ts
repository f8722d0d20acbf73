// The team registry as the CLI (`team …`, `doctor`) opens it without a running app: the
// same OS keychain and environment, and the data folder's settings — written through the
// app's own store (one write transaction, safe while the app runs), or only read when the
// command changes nothing (a missing database is then no team, not a new file).
import { existsSync } from 'node:fs';
import { createCore } from '../../main/core';
import { EventBus } from '../../main/events/bus';
import { databasePath } from '../../main/paths';
import { createKeychainSecretStore } from '../../main/secrets/keychainSecretStore';
import { SqliteStorage } from '../../main/store/sqlite/sqliteStorage';
import { TeamRegistry } from '../../main/teams/teamRegistry';
import { noTeamSettings, teamSettingsIn } from '../../main/teams/teamSettings';

export interface CliTeams {
  readonly registry: TeamRegistry;
  close(): Promise<void>;
}

export function openCliTeams(dataDir: string, mode: 'read' | 'write'): CliTeams {
  const secrets = createKeychainSecretStore();
  const bus = new EventBus();
  if (mode === 'write') {
    const core = createCore({ dataDir });
    return { registry: new TeamRegistry({ settings: teamSettingsIn(core.store), secrets, env: process.env, bus }), close: () => core.close() };
  }
  if (!existsSync(databasePath(dataDir))) {
    return { registry: new TeamRegistry({ settings: noTeamSettings, secrets, env: process.env, bus }), close: async () => undefined };
  }
  let store: SqliteStorage;
  try {
    store = new SqliteStorage({ path: databasePath(dataDir), bus, readonly: true });
  } catch (error) {
    // A database this app cannot open (newer, damaged): the teams cannot be read, and say why.
    const unreadable = { read: () => Promise.reject(error), update: () => Promise.reject(error) };
    return { registry: new TeamRegistry({ settings: unreadable, secrets, env: process.env, bus }), close: async () => undefined };
  }
  return { registry: new TeamRegistry({ settings: teamSettingsIn(store), secrets, env: process.env, bus }), close: () => store.close() };
}
