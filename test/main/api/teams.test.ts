// teams.* through the real dispatcher, against a real PostgreSQL cluster (throwaway): add
// keeps the tested connection and its state shows in teams.list and teams.changed (offline
// while the server is down, online again after); URLs come back only without passwords;
// refusals change nothing; a change made by the CLI in another process shows at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/main/events/bus';
import { SqliteStorage } from '../../../src/main/store/sqlite/sqliteStorage';
import { databasePath } from '../../../src/main/paths';
import { TeamRegistry } from '../../../src/main/teams/teamRegistry';
import { teamSettingsIn } from '../../../src/main/teams/teamSettings';
import { announceTeamsChanged } from '../../../src/main/teams/teamsChanged';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../support/postgres';
import { waitUntil } from '../../support/waitUntil';
import { eventsOf, setUpApi, type ApiHarness } from './harness';

let cluster: PgCluster;
const SECRET = 'Sup3r-s3cret';
const withPassword = (url: string) => url.replace('postgres://postgres@', `postgres://postgres:${SECRET}@`);

/** Nothing the UI received (answers and events) holds the password. */
function expectNoPassword(api: ApiHarness, ...answers: unknown[]): void {
  expect(JSON.stringify([answers, api.events])).not.toContain(SECRET);
}

describe.skipIf(!runPostgresSuites)('teams through the app API', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('adds a team: tested, set up, URL in the keychain, shown without its password, connected', async () => {
    const api = await setUpApi();
    const url = withPassword(await cluster.createDatabase());
    const added = await api.call('teams.add', { name: 'Acme', url });
    expect(added.team).toMatchObject({ name: 'Acme', url: url.replace(SECRET, '***'), source: 'keychain', variable: null, patterns: [], tls: null, connection: { status: 'online' } });
    expect(added.test).toMatchObject({ reachable: true, schemaVersion: added.test.appSchemaVersion, tls: { on: false, mode: null, verified: false } });
    expect(api.secrets.entries.get('team-url:acme')).toBe(url);
    expect(api.snapshot()).not.toContain(SECRET);
    const list = await api.call('teams.list', {});
    expect(list).toEqual({ defaultPlace: 'local', teams: [added.team] });
    expect(eventsOf(api.events, 'teams.changed').length).toBeGreaterThan(0);
    expectNoPassword(api, added, list);
  });

  it('shows a team offline while its server is down, and connected again once it is back', async () => {
    const api = await setUpApi();
    await api.call('teams.add', { name: 'ops', url: await cluster.createDatabase() });
    api.events.length = 0;
    cluster.kill();
    try {
      await waitUntil(() => eventsOf(api.events, 'teams.changed').some((e) => e.connections.some((c) => c.name === 'ops' && c.connection.status === 'offline')), 15_000, 'offline event');
      const down = (await api.call('teams.list', {})).teams[0].connection;
      expect(down).toMatchObject({ status: 'offline', reason: expect.any(String), since: expect.any(String), retryAt: expect.any(String) });
      const test = await api.call('teams.test', { name: 'ops' });
      expect(test).toMatchObject({ reachable: false, reason: expect.stringContaining('ECONNREFUSED'), schemaVersion: null, latencyMs: null });
    } finally {
      cluster.start();
    }
    await waitUntil(() => api.app.teams.connections.state('ops').status === 'online', 10_000, 'online again');
    expect((await api.call('teams.list', {})).teams[0].connection).toEqual({ status: 'online' });
    expect(eventsOf(api.events, 'teams.changed').at(-1)?.connections).toEqual([{ name: 'ops', connection: { status: 'online' } }]);
  });

  it('refuses a bad name, a remote URL without TLS, an unreachable database and a duplicate, changing nothing', async () => {
    const api = await setUpApi();
    const before = api.snapshot();
    expect(await api.fail('teams.add', { name: 'no spaces', url: 'postgres://localhost/x' })).toMatchObject({ code: 'invalid_input' });
    expect(await api.fail('teams.add', { name: 'LOCAL', url: await cluster.createDatabase() })).toMatchObject({ code: 'team_name_invalid' });
    const remote = await api.fail('teams.add', { name: 'acme', url: `postgres://ada:${SECRET}@db.example.com/team` });
    expect(remote.code).toBe('team_url_invalid');
    expect(remote.message).toContain('sslmode=verify-full');
    const noCa = await api.fail('teams.add', { name: 'acme', url: 'postgres://postgres@127.0.0.1:1/x?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem' });
    expect(noCa).toMatchObject({ code: 'team_url_invalid', message: expect.stringContaining('sslrootcert names /nonexistent/ca.pem, which this app cannot read') });
    const down = await api.fail('teams.add', { name: 'acme', url: 'postgres://postgres@127.0.0.1:1/x' });
    expect(down).toMatchObject({ code: 'team_unreachable', message: expect.stringContaining('Nothing was added.') });
    expect(api.snapshot()).toBe(before);
    expect(api.secrets.entries.size).toBe(0);
    expect((await api.call('teams.list', {})).teams).toEqual([]);
    expectNoPassword(api, remote);

    await api.call('teams.add', { name: 'acme', url: await cluster.createDatabase() });
    expect(await api.fail('teams.add', { name: 'ACME', url: await cluster.createDatabase() })).toMatchObject({ code: 'team_exists' });
  });

  it('keeps repo patterns and the default place, and forgets both when the team is removed', async () => {
    const api = await setUpApi();
    await api.call('teams.add', { name: 'acme', url: await cluster.createDatabase() });
    const team = await api.call('teams.setPatterns', { name: 'ACME', patterns: ['GitHub.com/Acme/*', '', 'github.com/acme/*'] });
    expect(team.patterns).toEqual(['github.com/acme/*']);
    expect(await api.app.teams.registry.teamForRepo('github.com/acme/app')).toBe('acme');
    expect(await api.fail('teams.setPatterns', { name: 'acme', patterns: ['acme'] })).toMatchObject({ code: 'repo_pattern_invalid' });
    expect((await api.call('teams.setDefault', { place: 'acme' })).defaultPlace).toBe('acme');
    expect(await api.fail('teams.setDefault', { place: 'beta' })).toMatchObject({ code: 'place_unknown' });
    expect(await api.fail('teams.setPatterns', { name: 'beta', patterns: [] })).toMatchObject({ code: 'team_not_found' });

    expect(await api.call('teams.remove', { name: 'acme' })).toEqual({ removed: true, stillFromEnvironment: null });
    expect(api.secrets.entries.size).toBe(0);
    expect(api.app.teams.connections.state('acme')).toEqual({ status: 'idle' });
    expect(await api.call('teams.list', {})).toEqual({ teams: [], defaultPlace: 'local' });
    expect(await api.fail('teams.remove', { name: 'acme' })).toMatchObject({ code: 'team_not_found' });
  });

  it('uses a team from LETAGENTS_TEAM_URL_<NAME>: connects when shown, never stores its URL', async () => {
    const url = withPassword(await cluster.createDatabase());
    const api = await setUpApi({ env: { LETAGENTS_TEAM_URL_CI_BOX: url } });
    const [team] = (await api.call('teams.list', {})).teams;
    expect(team).toMatchObject({ name: 'ci_box', source: 'environment', variable: 'LETAGENTS_TEAM_URL_CI_BOX', url: url.replace(SECRET, '***') });
    expect(team.connection).toEqual({ status: 'connecting' });
    await waitUntil(() => api.app.teams.connections.state('ci_box').status === 'online', 15_000, 'environment team online');
    expect(await api.fail('teams.remove', { name: 'ci-box' })).toMatchObject({ code: 'team_from_environment' });
    await api.call('teams.setPatterns', { name: 'ci_box', patterns: ['github.com/ci/*'] });
    expect(api.snapshot()).not.toContain('127.0.0.1');
    expect(api.secrets.entries.size).toBe(0);
    const doctor = await api.call('app.doctor', {});
    expect(doctor.checks.find((c) => c.title === 'Team "ci_box"')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^Reachable, schema \d+, [\d.]+ ms, TLS off \(this computer\); (?:[^;]+; )?URL from LETAGENTS_TEAM_URL_CI_BOX: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/),
    });
    expectNoPassword(api, doctor);
  });

  it('shows a team whose URL cannot be read as unavailable, and connects once the keychain works again', async () => {
    const api = await setUpApi();
    await api.call('teams.add', { name: 'acme', url: await cluster.createDatabase() });
    await api.app.teams.connections.close('acme');
    api.secrets.setUnavailable({ reason: 'the keyring is locked', fix: 'Unlock it.' });
    await api.call('teams.list', {});
    await waitUntil(() => api.app.teams.connections.state('acme').status === 'unavailable', 5_000, 'unavailable');
    const [team] = (await api.call('teams.list', {})).teams;
    expect(team.connection).toEqual({ status: 'unavailable', reason: 'The OS keychain is unavailable (the keyring is locked). Unlock it.' });
    // Looking again (the UI refetches on every teams.changed) retries without announcing anything new.
    api.events.length = 0;
    for (let i = 0; i < 3; i++) await api.call('teams.list', {});
    // Bounded, to show what does not come: no teams.changed after the looks.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(eventsOf(api.events, 'teams.changed')).toEqual([]);
    api.secrets.setUnavailable(null);
    await api.call('teams.list', {});
    await waitUntil(() => api.app.teams.connections.state('acme').status === 'online', 15_000, 'online once the keychain works');
  });

  it('shows a team the CLI added in another process at once, and closes one it removed', async () => {
    const api = await setUpApi();
    // The CLI's way: its own connection to the same database file, then the announcement.
    const cliStore = new SqliteStorage({ path: databasePath(api.dataDir), bus: new EventBus() });
    const cli = new TeamRegistry({ settings: teamSettingsIn(cliStore), secrets: api.secrets, env: {} });
    try {
      const added = await cli.add({ name: 'night', url: await cluster.createDatabase() });
      await added.storage.close();
      api.events.length = 0;
      announceTeamsChanged(api.dataDir);
      await api.waitFor(() => eventsOf(api.events, 'teams.changed').length > 0, 'teams.changed after the CLI added a team');
      expect((await api.call('teams.list', {})).teams.map((t) => t.name)).toEqual(['night']);
      await waitUntil(() => api.app.teams.connections.state('night').status === 'online', 15_000, 'connected');

      await cli.remove('night');
      announceTeamsChanged(api.dataDir);
      await waitUntil(() => api.app.teams.connections.state('night').status === 'idle', 15_000, 'closed after the CLI removed it');
      expect((await api.call('teams.list', {})).teams).toEqual([]);
    } finally {
      await cliStore.close();
    }
  });
});
