// A throwaway PostgreSQL cluster for tests, from Debian's `postgresql` package: initdb into
// a temp folder, started on a free 127.0.0.1 port with its socket in that folder (as the
// `postgres` user when the tests run as root), fsync off (a killed server loses nothing
// committed, only an OS crash would: synchronous_commit stays on); stopped with `pg_ctl -m immediate`
// afterwards, also when the test process exits early. One cluster per test file: it takes
// about 0.7 s, and a file that restarts its server disturbs no other file.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** CI=true turns a missing PostgreSQL into a failure instead of a skipped suite. */
export const inCi = !!process.env.CI && process.env.CI !== 'false';

function findBinDir(): string | null {
  const fromEnv = process.env.LETAGENTS_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : null;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : null;
}

const binDir = findBinDir();
/** Whether PostgreSQL's server binaries are installed (`apt-get install postgresql`). */
export const postgresInstalled = binDir !== null;
/** Run the PostgreSQL suites here: always in CI (failing when PostgreSQL is missing), else when installed. */
export const runPostgresSuites = postgresInstalled || inCi;

const asRoot = process.getuid?.() === 0;

export interface PgCluster {
  readonly port: number;
  /** The cluster's folder (its data files, log and socket). */
  readonly dir: string;
  /** URL of `database` on this cluster (superuser `postgres`, trust auth, loopback). */
  url(database: string): string;
  /** A new empty database; returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server at once (like a crash) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops the server at once (the database "goes down"). */
  kill(): void;
  start(): void;
  /** Stops it and removes its folder. */
  stop(): void;
}

let databases = 0;

export async function startPostgres(): Promise<PgCluster> {
  if (!binDir) {
    throw new Error('PostgreSQL is not installed: the team-room tests need its server binaries. Install it with `apt-get install postgresql`.');
  }
  const dir = mkdtempSync(join(tmpdir(), 'letagents-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  if (asRoot) chownSync(dir, ...postgresIds());
  const run = (tool: string, args: string[]) => {
    const command = [join(binDir, tool), ...args];
    if (!asRoot) return execFileSync(command[0], command.slice(1), { stdio: 'pipe' });
    const quoted = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    return execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', quoted], { stdio: 'pipe' });
  };
  const start = () =>
    run('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'server.log'), '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off`, 'start']);
  const kill = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // already stopped
    }
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  start();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    kill();
    rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without afterAll (a crash, a timeout) still stops its server.
  process.once('exit', stop);
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dir,
    url,
    async createDatabase() {
      const name = `t${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async restart() {
      kill();
      start();
    },
    kill,
    start,
    stop,
  };
}

function postgresIds(): [number, number] {
  const out = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error('Running as root needs the `postgres` user (created by the postgresql package).');
  return [Number(out.stdout.trim()), Number(gid.stdout.trim())];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
