// `letagents-desktop team …` as a person runs it: the real built CLI against a real
// PostgreSQL cluster (throwaway) and the real OS keychain (the private gnome-keyring of
// `npm test`). The URL ends up in the keychain only; refusals change nothing.
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION } from '../../src/main/store/postgres/migrations';
import { cleanupSpawned, ensureCliBuilt, runCli, startServe, tempDataDir } from '../support';
import { startPostgres, type PgCluster } from '../support/postgres';
import { keychainUrl, runTeamSuites, settingsText, uniqueTeamName } from '../support/teams';

let cluster: PgCluster;

/** A fresh database of the cluster, with a password in its URL (trust auth ignores it) to prove it never shows. */
async function teamUrl(): Promise<string> {
  return (await cluster.createDatabase()).replace('postgres://postgres@', 'postgres://postgres:Sup3r-s3cret@');
}

const team = (args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}) => runCli(['team', ...args], { timeoutMs: 30_000, ...options });

async function schemaOf(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const exists = await client.query("SELECT to_regclass('letagents_schema')::text AS t");
    if (!exists.rows[0].t) return null;
    return (await client.query('SELECT version FROM letagents_schema')).rows[0].version as number;
  } finally {
    await client.end();
  }
}

describe.skipIf(!runTeamSuites)('letagents-desktop team', () => {
  beforeAll(async () => {
    await ensureCliBuilt();
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    cluster?.stop();
    await cleanupSpawned();
  });

  it('adds a team from stdin: tests it, sets the database up, keeps the URL in the keychain only', async () => {
    const dataDir = tempDataDir();
    const name = uniqueTeamName('acme');
    const url = await teamUrl();
    const added = await team(['add', name, '--url-stdin', '--data-dir', dataDir], { input: `${url}\n` });
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const shown = url.replace(':Sup3r-s3cret@', ':***@');
    expect(added.stdout).toContain(`Added team "${name}": ${shown}`);
    expect(added.stdout).toMatch(/reachable: yes \(PostgreSQL 1\d/);
    expect(added.stdout).toContain(`schema:    schema ${PG_SCHEMA_VERSION}`);
    expect(added.stdout).toMatch(/latency: {3}\d+(\.\d)? ms/);
    expect(added.stdout).toContain('TLS:       off (this computer)');
    expect(await schemaOf(url)).toBe(PG_SCHEMA_VERSION);
    expect(await keychainUrl(name)).toBe(url);
    expect(settingsText(dataDir)).toContain(name);
    expect(settingsText(dataDir)).not.toContain('Sup3r-s3cret');

    const list = await team(['list', '--data-dir', dataDir]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${name} +${shown.replace(/[.*?]/g, '\\$&')} +keychain +-$`, 'm'));
    expect(list.stdout).toContain('New rooms go to this computer (local) unless a repo pattern decides.');

    const test = await team(['test', name, '--data-dir', dataDir]);
    expect(test.code).toBe(0);
    expect(test.stdout).toContain(`Team "${name}": ${shown} (URL from the keychain)`);
    expect(test.stdout).toContain('reachable: yes');
    for (const output of [added, list, test]) expect(output.stdout + output.stderr).not.toContain('Sup3r-s3cret');

    const removed = await team(['remove', name, '--data-dir', dataDir]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Removed team "${name}"`);
    expect(await keychainUrl(name)).toBeNull();
    expect(settingsText(dataDir)).not.toContain(name);
    expect((await team(['list', '--data-dir', dataDir])).stdout).toContain('No teams');
  });

  it('sets up a database owned by a plain role, created with the SQL of docs/teams.md (no superuser needed)', async () => {
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    // docs/teams.md's "Setting up a team" SQL, run as the cluster's superuser.
    await admin.query("CREATE ROLE letagents_acme LOGIN PASSWORD 'long-random-password'");
    await admin.query('CREATE DATABASE letagents_acme OWNER letagents_acme');
    await admin.end();
    const url = cluster.url('letagents_acme').replace('postgres://postgres@', 'postgres://letagents_acme:long-random-password@');
    const dataDir = tempDataDir();
    const name = uniqueTeamName('owned');
    const added = await team(['add', name, '--url-stdin', '--data-dir', dataDir], { input: url });
    expect(added.stderr).toBe('');
    expect(await schemaOf(url)).toBe(PG_SCHEMA_VERSION);
    await team(['remove', name, '--data-dir', dataDir]);
  });

  it('sets repo patterns and the default place, and shows them in the list', async () => {
    const dataDir = tempDataDir();
    const name = uniqueTeamName('platform');
    expect((await team(['add', name, '--url', await teamUrl(), '--data-dir', dataDir])).code).toBe(0);
    const patterns = await team(['patterns', name, 'github.com/Acme/*', 'gitlab.example.com/platform/**', '--data-dir', dataDir]);
    expect(patterns.stdout).toBe(`Repo rooms matching github.com/acme/*, gitlab.example.com/platform/** go to "${name}".\n`);
    expect((await team(['default', name.toUpperCase(), '--data-dir', dataDir])).stdout).toBe(`New rooms go to the team "${name}" unless a pattern decides.\n`);
    const list = await team(['list', '--data-dir', dataDir]);
    expect(list.stdout).toMatch(new RegExp(`^${name} \\(default\\) .* github\\.com/acme/\\* gitlab\\.example\\.com/platform/\\*\\*$`, 'm'));
    expect(list.stdout).toContain(`New rooms go to the team "${name}" unless a repo pattern decides.`);
    const bad = await team(['patterns', name, 'acme', '--data-dir', dataDir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('needs a host and at least one more part');
    await team(['remove', name, '--data-dir', dataDir]);
    expect((await team(['list', '--data-dir', dataDir])).stdout).toContain('No teams');
  });

  it('refuses a remote URL without TLS, a bad name, an unreachable database and a duplicate, changing nothing', async () => {
    const dataDir = tempDataDir();
    const name = uniqueTeamName('refused');
    const remote = await team(['add', name, '--url', 'postgres://ada:pw@db.example.com/team', '--data-dir', dataDir]);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain('is not on this computer and the URL does not ask for TLS');
    expect(remote.stderr).toContain('sslmode=verify-full');
    expect(remote.stderr).toContain('--allow-plaintext');
    expect(remote.stderr).not.toContain('pw@');
    const badName = await team(['add', 'local', '--url', await teamUrl(), '--data-dir', dataDir]);
    expect(badName.stderr).toContain('"local" means this computer');
    expect(existsSync(dataDir)).toBe(false);

    // A port where nothing listens: the connection is refused at once.
    const down = await team(['add', name, '--url', `postgres://postgres@127.0.0.1:1/none`, '--data-dir', dataDir]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/Cannot connect to the team database at 127\.0\.0\.1: ECONNREFUSED.*Nothing was added\./);
    const missingDb = await team(['add', name, '--url', cluster.url('no_such_database'), '--data-dir', dataDir]);
    expect(missingDb.stderr).toContain('database "no_such_database" does not exist');
    expect(await keychainUrl(name)).toBeNull();
    expect(settingsText(dataDir)).not.toContain(name);

    const url = await teamUrl();
    expect((await team(['add', name, '--url', url, '--data-dir', dataDir])).code).toBe(0);
    const twice = await team(['add', name.toUpperCase(), '--url', await teamUrl(), '--data-dir', dataDir]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`A team named "${name}" already exists`);
    expect(await keychainUrl(name)).toBe(url);
    await team(['remove', name, '--data-dir', dataDir]);
  });

  it('refuses a team database set up by a newer app, and says to update', async () => {
    const url = await teamUrl();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE letagents_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL); INSERT INTO letagents_schema VALUES (1, 99)');
    await client.end();
    const dataDir = tempDataDir();
    const name = uniqueTeamName('future');
    const result = await team(['add', name, '--url', url, '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`set up by a newer version of LetAgents (schema 99; this app knows ${PG_SCHEMA_VERSION}). Update the app`);
    expect(await keychainUrl(name)).toBeNull();
    expect(settingsText(dataDir)).not.toContain(name);
    expect(await schemaOf(url)).toBe(99);
  });

  it('refuses to add when the keychain cannot be reached, before connecting', async () => {
    const dataDir = tempDataDir();
    const url = await teamUrl();
    const result = await team(['add', uniqueTeamName('nokeys'), '--url', url, '--data-dir', dataDir], {
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/letagents-test-bus' },
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    // One short line first, then the fix, then the way servers give the URL (no D-Bus detail).
    expect(lines[0]).toBe('letagents-desktop team add: the OS keychain is unavailable: no Secret Service: no D-Bus session bus is reachable.');
    expect(lines[1]).toMatch(/^ {2}fix: Install and unlock gnome-keyring or KWallet/);
    expect(lines[2]).toMatch(/^ {2}on a server without a keychain: set LETAGENTS_TEAM_URL_NOKEYS_\w+=postgres:\/\/… in the app's environment/);
    expect(result.stderr).not.toContain('DBus');
    expect(await schemaOf(url)).toBeNull();
    expect(settingsText(dataDir)).not.toContain('nokeys');
  });

  it('uses LETAGENTS_TEAM_URL_<NAME> and never writes it anywhere', async () => {
    const dataDir = tempDataDir();
    const url = await teamUrl();
    const env = { LETAGENTS_TEAM_URL_CI_BOX: url };
    const list = await team(['list', '--data-dir', dataDir], { env });
    expect(list.stdout).toMatch(/^ci_box +postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+ +LETAGENTS_TEAM_URL_CI_BOX in this shell +-$/m);
    const test = await team(['test', 'ci-box', '--data-dir', dataDir], { env });
    expect(test.code).toBe(0);
    expect(test.stdout).toContain('(URL from LETAGENTS_TEAM_URL_CI_BOX)');
    const remove = await team(['remove', 'ci_box', '--data-dir', dataDir], { env });
    expect(remove.code).toBe(1);
    expect(remove.stderr).toContain('comes from the environment variable LETAGENTS_TEAM_URL_CI_BOX; unset it to remove the team');
    expect((await team(['patterns', 'ci_box', 'github.com/ci/*', '--data-dir', dataDir], { env })).code).toBe(0);
    expect(settingsText(dataDir)).toContain('github.com/ci/*');
    expect(settingsText(dataDir)).not.toContain('127.0.0.1');
    expect(await keychainUrl('ci_box')).toBeNull();
  });

  it('doctor reports each team: reachable, schema, latency, TLS, where its URL comes from; a newer schema is a problem', async () => {
    const dataDir = tempDataDir();
    const name = uniqueTeamName('doc');
    const url = await teamUrl();
    await team(['add', name, '--url', url, '--data-dir', dataDir]);
    const env = { LETAGENTS_TEAM_URL_DOWN: 'postgres://postgres@127.0.0.1:1/none' };
    const ok = await runCli(['doctor', '--data-dir', dataDir], { env });
    const shown = url.replace(':Sup3r-s3cret@', ':***@');
    const line = ok.stdout.split('\n').find((l) => l.startsWith(`[ok] Team "${name}": `));
    expect(line).toMatch(/^\[ok\] Team "[^"]+": Reachable, schema \d+, [\d.]+ ms, TLS off \(this computer\); other machines' changes arrive at once \(LISTEN\); URL from the keychain: /);
    expect(line).toContain(`: Reachable, schema ${PG_SCHEMA_VERSION}, `);
    expect(line?.endsWith(`URL from the keychain: ${shown}.`)).toBe(true);
    expect(ok.stdout).toContain('[!!] Team "down": Cannot be reached: ECONNREFUSED: cannot reach the database server. URL from LETAGENTS_TEAM_URL_DOWN: postgres://postgres@127.0.0.1:1/none.');
    expect(ok.code).toBe(1);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('UPDATE letagents_schema SET version = 99');
    await client.end();
    const newer = await runCli(['doctor', '--data-dir', dataDir]);
    expect(newer.code).toBe(1);
    expect(newer.stdout).toContain(`[!!] Team "${name}": Reachable, schema 99 is newer than this app (it knows ${PG_SCHEMA_VERSION}): update the app,`);
    expect(newer.stdout).toContain('fix: Update LetAgents on this machine');
    expect(newer.stdout + ok.stdout).not.toContain('Sup3r-s3cret');
    await team(['remove', name, '--data-dir', dataDir]);
  });

  it('patterns NAME shows the patterns and changes nothing; --clear removes them', async () => {
    const dataDir = tempDataDir();
    const name = uniqueTeamName('look');
    expect((await team(['add', name, '--url', await teamUrl(), '--data-dir', dataDir])).code).toBe(0);
    expect((await team(['patterns', name, 'github.com/acme/*', '--data-dir', dataDir])).code).toBe(0);
    const look = await team(['patterns', name, '--data-dir', dataDir]);
    expect(look).toMatchObject({ code: 0, stderr: '' });
    expect(look.stdout).toContain(`Repo rooms matching github.com/acme/* go to "${name}".`);
    expect(settingsText(dataDir)).toContain('github.com/acme/*');
    const both = await team(['patterns', name, 'github.com/x/*', '--clear', '--data-dir', dataDir]);
    expect(both.code).toBe(2);
    expect(settingsText(dataDir)).toContain('github.com/acme/*');
    const cleared = await team(['patterns', name, '--clear', '--data-dir', dataDir]);
    expect(cleared.stdout).toContain(`"${name}" has no repo patterns now.`);
    expect(settingsText(dataDir)).not.toContain('github.com/acme/*');
    await team(['remove', name, '--data-dir', dataDir]);
  });

  it('list asks the running app, says where each URL came from, and notes what only this shell has; --json too', async () => {
    const dataDir = tempDataDir();
    const appUrl = await teamUrl();
    const shellUrl = await teamUrl();
    const serve = await startServe({ dataDir, env: { LETAGENTS_TEAM_URL_APPONLY: appUrl } });
    const list = await team(['list', '--data-dir', dataDir], { env: { LETAGENTS_TEAM_URL_SHELLONLY: shellUrl } });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`Teams of the LetAgents app running for ${dataDir}`);
    expect(list.stdout).toMatch(/^apponly +postgres:\/\/postgres:\*\*\*@\S+ +LETAGENTS_TEAM_URL_APPONLY in the app's environment +\S/m);
    expect(list.stdout).toContain('LETAGENTS_TEAM_URL_SHELLONLY is set in this shell, but the running app started without it');
    const json = JSON.parse((await team(['list', '--json', '--data-dir', dataDir], { env: { LETAGENTS_TEAM_URL_SHELLONLY: shellUrl } })).stdout) as {
      source: string; teams: Array<{ name: string; from: string; variable: string | null }>; notInApp: Array<{ name: string }>;
    };
    expect(json.source).toBe('running-app');
    expect(json.teams).toEqual([expect.objectContaining({ name: 'apponly', from: 'environment', variable: 'LETAGENTS_TEAM_URL_APPONLY' })]);
    expect(json.notInApp).toEqual([expect.objectContaining({ name: 'shellonly' })]);
    expect(JSON.stringify(json)).not.toContain('Sup3r-s3cret');
    const doctor = await runCli(['doctor', '--data-dir', dataDir], { env: { LETAGENTS_TEAM_URL_SHELLONLY: shellUrl } });
    expect(doctor.stdout).toMatch(/Teams of the running app: "apponly" \S[^\n]*\(URL from LETAGENTS_TEAM_URL_APPONLY in the app's environment\)\./);
    expect(doctor.stdout).toContain('LETAGENTS_TEAM_URL_SHELLONLY is set in this shell, but the running app started without it');
    await serve.stop();
  });

  it('explains its usage, and refuses an unknown subcommand or option', async () => {
    const help = await team(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Prefer --url-stdin');
    expect(help.stdout).toContain('LETAGENTS_TEAM_URL_<NAME>');
    expect((await team(['add', '--help'])).code).toBe(0);
    const unknown = await team(['join']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "join"');
    const typo = await team(['lsit']);
    expect(typo.stderr).toContain('unknown command "lsit"; did you mean list?');
    const option = await team(['list', '--jsno']);
    expect(option.code).toBe(2);
    expect(option.stderr).toBe('letagents-desktop team list: unknown option --jsno; did you mean --json?\n(`letagents-desktop team --help` shows every option.)\n');
    const both = await team(['add', 'x', '--url', 'postgres://h/d', '--url-stdin'], { input: '' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
  });
});
