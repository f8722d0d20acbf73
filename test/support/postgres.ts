// A throwaway PostgreSQL cluster for tests, from Debian's `postgresql` package: initdb into
// a temp folder, started on a free 127.0.0.1 port with its socket in that folder (as the
// `postgres` user when the tests run as root), fsync off (a killed server loses nothing
// committed, only an OS crash would: synchronous_commit stays on); stopped with `pg_ctl -m immediate`
// by the file's afterAll, with any PgBouncer started on it (a file that forgets fails: liveServers.ts).
// One cluster per test file (it takes about 0.7 s, and a file that restarts its server disturbs
// no other file), except the team variant of the MCP tool suite, whose files share one cluster
// (and PgBouncer) started once per run (teamClusterSetup.ts): they never restart it, and each
// test has a database of its own.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { serverStarted } from './liveServers';

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

/** Runs `command` as the `postgres` user when the tests run as root (neither server runs as root). */
function asServerUser(command: string[]): [string, string[]] {
  if (!asRoot) return [command[0], command.slice(1)];
  const quoted = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return ['su', ['postgres', '-s', '/bin/sh', '-c', `exec ${quoted}`]];
}

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
  /** Stops it, and every PgBouncer started on it, and removes its folder. */
  stop(): void;
}

let databases = 0;

/** Per cluster folder, the stops of the PgBouncers in front of it: stopping the cluster stops them first. */
const stopsWith = new Map<string, Set<() => void>>();

/** A new empty database on the cluster at `url(…)`; returns its URL. Unique across the processes sharing a cluster. */
async function createDatabaseOn(url: (database: string) => string): Promise<string> {
  const name = `t${process.pid}_${randomBytes(3).toString('hex')}_${++databases}`;
  const client = new pg.Client({ connectionString: url('postgres') });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return url(name);
}

export interface PostgresOptions {
  /** PostgreSQL's max_connections (default 100): a cluster shared by many test files needs more. */
  maxConnections?: number;
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PgCluster> {
  if (!binDir) {
    throw new Error('PostgreSQL is not installed: the team-room tests need its server binaries. Install it with `apt-get install postgresql`.');
  }
  const dir = mkdtempSync(join(tmpdir(), 'letagents-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  // Chosen once the cluster exists, just before its first start (startOnFreePort).
  let port = 0;
  if (asRoot) chownSync(dir, ...postgresIds());
  const run = (tool: string, args: string[]) => execFileSync(...asServerUser([join(binDir, tool), ...args]), { stdio: 'pipe' });
  const start = () =>
    run('pg_ctl', ['-D', data, '-w', '-l', log, '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off -c max_connections=${options.maxConnections ?? 100}`, 'start']);
  const kill = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    } catch {
      // already stopped
    }
  };
  let stopped = false;
  let forget = () => undefined as void;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const stopBouncer of stopsWith.get(dir) ?? []) stopBouncer();
    stopsWith.delete(dir);
    kill();
    rmSync(dir, { recursive: true, force: true });
    forget();
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
    await startOnFreePort((free) => {
      port = free;
      start();
    }, log);
  } catch (error) {
    stop();
    throw error;
  }
  forget = serverStarted({ what: `PostgreSQL cluster ${dir}`, stop });
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dir,
    url,
    createDatabase: () => createDatabaseOn(url),
    async restart() {
      kill();
      start();
    },
    kill,
    start,
    stop,
  };
}

/**
 * The cluster another process started (teamClusterSetup.ts) and stops: databases can be made
 * on it; restarting or stopping it is that process's (a file sharing it must not).
 */
export function sharedPostgres(port: number, dir: string): PgCluster {
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const refuse = () => {
    throw new Error('This cluster is shared by the test files of this run: start one of your own (startPostgres) to restart or stop it.');
  };
  return { port, dir, url, createDatabase: () => createDatabaseOn(url), restart: async () => refuse(), kill: refuse, start: refuse, stop: refuse };
}

const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path)) ?? null;
/** Whether Debian's `pgbouncer` is installed (CI installs it: the team suites also run through it). */
export const pgbouncerInstalled = PGBOUNCER !== null;

export interface PgBouncer {
  readonly port: number;
  /** The URL of `database` of the cluster through the pooler (transaction mode: no session survives a transaction). */
  pooledUrl(directUrl: string): string;
  /** Rows of a `SHOW …` command of PgBouncer's admin console (SHOW CLIENTS, SHOW POOLS …). */
  show(what: string): Promise<Array<Record<string, unknown>>>;
  stop(): void;
}

/**
 * A real PgBouncer in transaction mode in front of `cluster` (as Supabase's, Neon's or a
 * team's own pooler runs), on a free 127.0.0.1 port, trusting the cluster's superuser; stopped
 * with the cluster's test process. LISTEN does not work through it: the team's listener goes
 * to the cluster directly (the URL's listen_url).
 */
export interface PgBouncerOptions {
  /**
   * Resets each server connection (DISCARD ALL) after every transaction, so a query that leans on
   * session state (a SET, a named prepared statement, a session advisory lock, a temporary table)
   * fails every time instead of when the pooler happens to hand out another connection.
   */
  resetEveryTransaction?: boolean;
  /** Closes server connections unused this long (PgBouncer's default: 600 s); a bouncer shared by many files' databases keeps fewer. */
  serverIdleSeconds?: number;
}

export async function startPgBouncer(cluster: PgCluster, options: PgBouncerOptions = {}): Promise<PgBouncer> {
  if (!PGBOUNCER) throw new Error('PgBouncer is not installed: the pooler tests need it. Install it with `apt-get install pgbouncer`.');
  // A port found free may be taken before PgBouncer binds it (as startOnFreePort says): then another.
  for (let attempt = 1; ; attempt++) {
    const bouncer = await startPgBouncerOn(cluster, options, await freePort(), PGBOUNCER);
    if (bouncer) return bouncer;
    if (attempt >= 5) throw new Error('PgBouncer found each of five free ports taken before it could listen there.');
  }
}

/** PgBouncer on `port`; null (and stopped) when that port was taken before it could listen. */
async function startPgBouncerOn(cluster: PgCluster, options: PgBouncerOptions, port: number, pgbouncer: string): Promise<PgBouncer | null> {
  // Files of their own (a cluster may have more than one pooler in front of it).
  const file = (ext: string) => join(cluster.dir, `pgbouncer-${port}.${ext}`);
  const ini = file('ini');
  writeFileSync(join(cluster.dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${cluster.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${cluster.dir}`,
      'auth_type = trust',
      `auth_file = ${join(cluster.dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'admin_users = postgres',
      // After the server was down, PgBouncer refuses new logins for this long (default 15 s):
      // the tests restart their server and expect the team back within a few seconds.
      'server_login_retry = 1',
      'max_client_conn = 2000',
      'default_pool_size = 20',
      ...(options.resetEveryTransaction ? ['server_reset_query = DISCARD ALL', 'server_reset_query_always = 1'] : []),
      ...(options.serverIdleSeconds ? [`server_idle_timeout = ${options.serverIdleSeconds}`] : []),
      `logfile = ${file('log')}`,
      `pidfile = ${file('pid')}`,
      '',
    ].join('\n'),
  );
  if (asRoot) chownSync(ini, ...postgresIds());
  const logged = existsSync(file('log')) ? readFileSync(file('log'), 'utf8').length : 0;
  const child: ChildProcess = spawn(...asServerUser([pgbouncer, ini]), { stdio: 'ignore' });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    // The pooler itself first (as root, `child` is only the `su` around it, and a signal to su
    // does not always reach it): SIGKILL, since a newer PgBouncer's SIGTERM waits for its clients.
    for (const pid of [serverPidUnder(child, file('pid')), child.pid]) {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    stopsWith.get(cluster.dir)?.delete(stop);
    forget();
  };
  if (!stopsWith.has(cluster.dir)) stopsWith.set(cluster.dir, new Set());
  stopsWith.get(cluster.dir)!.add(stop);
  const forget = serverStarted({ what: `PgBouncer on port ${port} (${ini})`, stop });
  try {
    if (!(await listensOn(port, child, file('log'), logged))) {
      stop();
      return null;
    }
  } catch (error) {
    stop();
    throw error;
  }
  return {
    port,
    pooledUrl: (directUrl) => pooledUrlOn(port, directUrl),
    async show(what) {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/pgbouncer` });
      await client.connect();
      try {
        return (await client.query(`SHOW ${what}`)).rows as Array<Record<string, unknown>>;
      } finally {
        await client.end();
      }
    },
    stop,
  };
}

/** The URL of the database at `directUrl` through the PgBouncer on 127.0.0.1:`port`. */
export function pooledUrlOn(port: number, directUrl: string): string {
  const url = new URL(directUrl);
  url.port = String(port);
  return url.toString();
}

/**
 * Whether PgBouncer listens on 127.0.0.1:`port`, as its log (from `from` on) says within 10 s
 * while `child` lives: false when the port was taken. PgBouncer then only warns and goes on
 * without TCP, so a connect to the port would reach whoever took it.
 */
async function listensOn(port: number, child: ChildProcess, log: string, from: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PgBouncer exited with ${child.exitCode} before listening.`);
    const said = existsSync(log) ? readFileSync(log, 'utf8').slice(from) : '';
    if (said.includes(`listening on 127.0.0.1:${port}`)) return true;
    if (said.includes(`cannot listen on 127.0.0.1:${port}`)) return false;
    if (Date.now() > deadline) throw new Error(`PgBouncer did not listen on port ${port} within 10 s.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The pid of the server `child` runs: itself, or under `su` (as root) the process su started,
 * from the server's pid file or else su's own children (Linux); null when none is known yet.
 */
function serverPidUnder(child: ChildProcess, pidFile: string): number | null {
  if (!asRoot || !child.pid) return child.pid ?? null;
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (pid > 0) return pid;
  } catch {
    // not written yet
  }
  try {
    const pid = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0]);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function postgresIds(): [number, number] {
  const out = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error('Running as root needs the `postgres` user (created by the postgresql package).');
  return [Number(out.stdout.trim()), Number(gid.stdout.trim())];
}

/**
 * Starts a new cluster on a port found free, again on another one when that port was taken
 * meanwhile: between freePort's close and the server's bind any process of the run may get it
 * (an outgoing connection's local port, another server's listen(0)); the run opens thousands of
 * connections, each a chance to be the one.
 */
async function startOnFreePort(startOn: (port: number) => void, log: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const logged = existsSync(log) ? readFileSync(log, 'utf8').length : 0;
    try {
      startOn(port);
      return;
    } catch (error) {
      const said = existsSync(log) ? readFileSync(log, 'utf8').slice(logged) : '';
      if (attempt >= 5 || !/could not bind|Address already in use/i.test(said)) throw error;
    }
  }
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
