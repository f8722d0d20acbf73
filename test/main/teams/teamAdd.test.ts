// Adding a team is all or nothing: a keychain that refuses the URL leaves no settings row (not
// even while the save is tried), an environment team's patterns and the default place stay,
// and a retry adds the team. Real keychain (the private gnome-keyring of `npm test`), real
// settings file, real PostgreSQL (throwaway). The keychain cannot be made to refuse one write
// without breaking the keyring every other test file shares, so the store here is the real one
// with a refusal put in front of its writes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/main/events/bus';
import { databasePath } from '../../../src/main/paths';
import { createKeychainSecretStore } from '../../../src/main/secrets/keychainSecretStore';
import { KeychainUnavailableError, type SecretStore } from '../../../src/main/secrets/secretStore';
import { prepareDataFolder } from '../../../src/main/store/dataFolder';
import { SqliteStorage } from '../../../src/main/store/sqlite/sqliteStorage';
import { teamKeychainAccount, teamUrlEnvName } from '../../../src/main/teams/teamNames';
import { TeamRegistry } from '../../../src/main/teams/teamRegistry';
import { teamSettingsIn } from '../../../src/main/teams/teamSettings';
import { tempDataDir } from '../../support';
import { startPostgres, type PgCluster } from '../../support/postgres';
import { keychainUrl, runTeamSuites, settingsText, uniqueTeamName } from '../../support/teams';

let cluster: PgCluster;
const keychain = createKeychainSecretStore();
const closing: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The settings of a fresh data folder, as the app and the CLI open them. */
function dataFolder(): { dataDir: string; store: SqliteStorage } {
  const dataDir = tempDataDir();
  prepareDataFolder(dataDir);
  const store = new SqliteStorage({ path: databasePath(dataDir), bus: new EventBus() });
  closing.push(() => store.close());
  return { dataDir, store };
}

/**
 * The real keychain, except that the next `refusals` saves fail as a locked keyring does;
 * `whileSaving` runs at each refused save (to look at what is stored meanwhile).
 */
function refusingKeychain(refusals: number, whileSaving: () => Promise<void>): SecretStore {
  let left = refusals;
  return {
    ...keychain,
    async set(account, value) {
      if (left === 0) return keychain.set(account, value);
      left--;
      await whileSaving();
      throw new KeychainUnavailableError('the keyring refused the write', 'Unlock the keyring, then try again.');
    },
  };
}

describe.skipIf(!runTeamSuites)('adding a team when the keychain refuses its URL (a refusal put in front of the real keychain)', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('lists and stores nothing, not even while the save is tried; a retry adds the team', async () => {
    const { dataDir, store } = dataFolder();
    const name = uniqueTeamName('refused');
    const url = await cluster.createDatabase();
    const seenWhileSaving: string[] = [];
    const registry: TeamRegistry = new TeamRegistry({
      settings: teamSettingsIn(store),
      secrets: refusingKeychain(1, async () => {
        // What another process (the CLI's `team list`, the app's Settings) would read now.
        seenWhileSaving.push(settingsText(dataDir), JSON.stringify(await registry.list()));
      }),
      env: {},
    });

    await expect(registry.add({ name, url })).rejects.toMatchObject({
      code: 'keychain_unavailable',
      message: 'The OS keychain is unavailable (the keyring refused the write). Unlock the keyring, then try again.',
    });
    expect(seenWhileSaving).toHaveLength(2);
    for (const seen of seenWhileSaving) expect(seen).not.toContain(name);
    expect(await registry.list()).toEqual([]);
    expect(settingsText(dataDir)).not.toContain(name);
    expect(await keychainUrl(name)).toBeNull();

    const added = await registry.add({ name, url });
    closing.push(() => added.storage.close());
    expect((await registry.list()).map((t) => t.name)).toEqual([name]);
    expect(await keychainUrl(name)).toBe(url);
    await registry.remove(name);
  });

  it("keeps an environment team's patterns and the default place when adding it to the keychain fails", async () => {
    const { dataDir, store } = dataFolder();
    const name = uniqueTeamName('fromenv');
    const url = await cluster.createDatabase();
    const settings = teamSettingsIn(store);
    // Given by the environment first: its patterns and the default are kept in the settings.
    const withEnv = new TeamRegistry({ settings, secrets: keychain, env: { [teamUrlEnvName(name)]: url } });
    await withEnv.setPatterns(name, ['github.com/acme/*']);
    await withEnv.setDefault(name);
    const before = settingsText(dataDir);
    expect(before).toContain('github.com/acme/*');

    // The variable is gone; adding the team to the keychain is refused by the keychain.
    const registry = new TeamRegistry({ settings, secrets: refusingKeychain(1, async () => undefined), env: {} });
    await expect(registry.add({ name, url })).rejects.toMatchObject({ code: 'keychain_unavailable' });
    expect(settingsText(dataDir)).toBe(before);
    expect(await keychainUrl(name)).toBeNull();

    const added = await registry.add({ name, url });
    closing.push(() => added.storage.close());
    expect(added.team).toMatchObject({ name, source: 'keychain', patterns: ['github.com/acme/*'] });
    expect(await registry.defaultPlace()).toBe(name);
    await registry.remove(name);
  });

  it("leaves the keychain entry of an add that took the name meanwhile (the CLI's, in another process)", async () => {
    const { dataDir, store } = dataFolder();
    const name = uniqueTeamName('twin');
    const [ours, theirs] = [await cluster.createDatabase(), await cluster.createDatabase()];
    // The CLI: its own connection to the same settings file and the same keychain.
    const cliStore = new SqliteStorage({ path: databasePath(dataDir), bus: new EventBus() });
    closing.push(() => cliStore.close());
    const cli = new TeamRegistry({ settings: teamSettingsIn(cliStore), secrets: keychain, env: {} });
    let cliAdded = false;
    const registry = new TeamRegistry({
      settings: teamSettingsIn(store),
      secrets: {
        ...keychain,
        // The CLI adds the same team just as this add starts keeping its URL.
        async get(account) {
          if (!cliAdded && account === teamKeychainAccount(name)) {
            cliAdded = true;
            const added = await cli.add({ name, url: theirs });
            closing.push(() => added.storage.close());
          }
          return keychain.get(account);
        },
      },
      env: {},
    });

    await expect(registry.add({ name, url: ours })).rejects.toMatchObject({ code: 'team_exists' });
    expect(cliAdded).toBe(true);
    expect(await keychainUrl(name)).toBe(theirs);
    expect((await registry.list()).map((t) => t.name)).toEqual([name]);
    expect((await registry.connectionOf(name)).url).toBe(theirs);
    await cli.remove(name);
  });
});
