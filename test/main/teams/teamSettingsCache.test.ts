// The team settings are kept between reads (every agent call that looks at every place reads
// them), and a change is still seen at once: one this app makes, and one another process
// (the CLI) commits to the same file without announcing it.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { teamSettingsIn, type TeamRecord, type TeamSettingsAccess } from '../../../src/main/teams/teamSettings';
import type { SqliteStorage } from '../../../src/main/store/sqlite/sqliteStorage';
import { cleanupSpawned, tempDir } from '../../support';
import { openSqlite } from '../store/storageFixtures';

const record = (name: string): TeamRecord => ({ name, patterns: [], allowPlaintext: false, inKeychain: true, shownUrl: null });
const addTeam = (access: TeamSettingsAccess, name: string) =>
  access.update((current) => ({ next: { ...current, teams: [...current.teams, record(name)] }, result: undefined }));
const names = async (access: TeamSettingsAccess) => (await access.read()).teams.map((t) => t.name);

const opened: SqliteStorage[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  cleanupSpawned();
});

function twoProcesses() {
  const path = join(tempDir('la-team-settings-'), 'letagents.db');
  const app = openSqlite(path).storage;
  const cli = openSqlite(path).storage;
  opened.push(app, cli);
  return { app, cli };
}

describe('team settings kept between reads', () => {
  it('reads the file once while nothing changes', async () => {
    const { app } = twoProcesses();
    const settings = teamSettingsIn(app);
    expect(await names(settings)).toEqual([]);
    const reads = app.readCount;
    for (let i = 0; i < 5; i++) expect(await names(settings)).toEqual([]);
    expect(app.readCount).toBe(reads);
  });

  it('sees a team another process wrote at once, without its announcement', async () => {
    const { app, cli } = twoProcesses();
    const settings = teamSettingsIn(app);
    expect(await names(settings)).toEqual([]);
    await addTeam(teamSettingsIn(cli), 'night');
    expect(await names(settings)).toEqual(['night']);
    await teamSettingsIn(cli).update((current) => ({ next: { ...current, teams: [], defaultPlace: 'local' }, result: undefined }));
    expect(await names(settings)).toEqual([]);
  });

  it("sees this app's own change at once, made through any access to the same store", async () => {
    const { app } = twoProcesses();
    const registryView = teamSettingsIn(app);
    expect(await names(registryView)).toEqual([]);
    await addTeam(teamSettingsIn(app), 'acme');
    expect(await names(registryView)).toEqual(['acme']);
    // A read that overlaps an update keeps nothing: the one after it sees the update.
    const during = addTeam(registryView, 'beta');
    await names(registryView);
    await during;
    expect(await names(registryView)).toEqual(['acme', 'beta']);
  });
});
