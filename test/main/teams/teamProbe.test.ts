// `team test` and `doctor` look at a team database without changing it: reachable, schema,
// round trip, and TLS as the server reports it — against a real cluster with TLS turned on
// (a self-signed certificate for "localhost", made with openssl for this test).
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION } from '../../../src/main/store/postgres/migrations';
import { TeamUrlError } from '../../../src/main/store/postgres/teamUrl';
import { probeTeam } from '../../../src/main/teams/teamProbe';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../support/postgres';

let cluster: PgCluster;
let certDir: string;
let cert: string;

/** Turns TLS on in the running cluster with a fresh self-signed certificate for localhost. */
async function enableTls(): Promise<void> {
  certDir = mkdtempSync(join(tmpdir(), 'letagents-tls-'));
  cert = join(certDir, 'server.crt');
  const key = join(certDir, 'server.key');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
    '-addext', 'subjectAltName=DNS:localhost', '-keyout', key, '-out', cert], { stdio: 'pipe' });
  if (process.getuid?.() === 0) {
    // The cluster runs as `postgres`, which must own the key (PostgreSQL refuses a key others can read).
    const ids = ['-u', '-g'].map((flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim()));
    for (const path of [certDir, cert, key]) chownSync(path, ids[0], ids[1]);
  }
  const client = new pg.Client({ connectionString: cluster.url('postgres') });
  await client.connect();
  try {
    await client.query(`ALTER SYSTEM SET ssl_cert_file = '${cert}'`);
    await client.query(`ALTER SYSTEM SET ssl_key_file = '${key}'`);
    await client.query('ALTER SYSTEM SET ssl = on');
    await client.query('SELECT pg_reload_conf()');
  } finally {
    await client.end();
  }
}

describe.skipIf(!runPostgresSuites)('a read-only look at a team database', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
    await enableTls();
  }, 30_000);
  afterAll(() => {
    cluster?.stop();
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  it('reports a plaintext loopback database: reachable, not set up yet, its latency, TLS off; and changes nothing', async () => {
    const url = await cluster.createDatabase();
    const probe = await probeTeam(url);
    expect(probe).toMatchObject({ reachable: true, reason: null, schemaVersion: 0, appSchemaVersion: PG_SCHEMA_VERSION, tls: { on: false, mode: null, verified: false }, host: '127.0.0.1' });
    expect(probe.latencyMs).toBeGreaterThanOrEqual(0);
    expect(probe.serverVersion).toMatch(/^1\d/);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
    await client.end();
    expect(tables.rows[0].n).toBe(0);
  });

  it('reports TLS on and the certificate unchecked with sslmode=require', async () => {
    const url = `${await cluster.createDatabase()}?sslmode=require`;
    expect((await probeTeam(url)).tls).toEqual({ on: true, mode: 'require', verified: false });
  });

  it('reports TLS on and verified with verify-full against the right CA and host name', async () => {
    const url = (await cluster.createDatabase()).replace('127.0.0.1', 'localhost');
    const probe = await probeTeam(`${url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(cert)}`);
    expect(probe).toMatchObject({ reachable: true, tls: { on: true, mode: 'verify-full', verified: true } });
  });

  it('cannot connect with verify-full when the certificate is not trusted or names another host, and says why', async () => {
    const url = await cluster.createDatabase();
    const untrusted = await probeTeam(`${url.replace('127.0.0.1', 'localhost')}?sslmode=verify-full`);
    expect(untrusted).toMatchObject({ reachable: false, reason: expect.stringMatching(/self[- ]signed certificate/i), schemaVersion: null });
    const wrongHost = await probeTeam(`${url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(cert)}`);
    expect(wrongHost).toMatchObject({ reachable: false, reason: expect.stringMatching(/IP: 127\.0\.0\.1 is not in the cert's list|does not match/i) });
  });

  it('answers "not reachable" for a server that is down, and refuses a URL that breaks the TLS rule', async () => {
    const down = await probeTeam('postgres://postgres@127.0.0.1:1/x');
    expect(down).toMatchObject({ reachable: false, reason: 'ECONNREFUSED: cannot reach the database server', latencyMs: null });
    await expect(probeTeam('postgres://db.example.com/x')).rejects.toBeInstanceOf(TeamUrlError);
  });
});
