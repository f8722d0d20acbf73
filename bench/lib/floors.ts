// The honest floors of B1, B3 and B10 (issue 38): the same path with nothing of ours on it, so
// a figure's target can be read against what this machine can do. B1: a bare MCP SDK server
// behind one pass-through process, its tool one SQLite commit. B3: one line fanned out by a hub
// through 50 pass-through processes to their readers. B10: a committed row and NOTIFY reaching
// a LISTENing connection that reads the row back.
import { spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import pg from 'pg';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { closeClient, connectStdio, repoRoot, tempDir, track } from './processes';

const fixture = (name: string) => join(repoRoot, 'bench', 'fixtures', name);
export const bareRelayScript = fixture('bareRelay.mjs');

/** Starts a fixture that prints "ready" once it listens. */
async function startListening(script: string, args: string[]): Promise<ChildProcessWithoutNullStreams> {
  const child = track(spawn(process.execPath, [script, ...args], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] }));
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready: ${err}`)));
  });
  return child;
}

/** B1's floor: an SDK client → bareRelay → bareCommitServer (SDK, one SQLite commit per call). */
export async function startCommitFloor(cwd: string): Promise<{ client: Client; stop(): Promise<void> }> {
  const dir = tempDir('la-floor-');
  const socket = join(dir, 'bare.sock');
  const server = await startListening(fixture('bareCommitServer.mjs'), [socket, join(dir, 'bare.db')]);
  const client = await connectStdio([bareRelayScript, socket], cwd);
  return {
    client,
    async stop() {
      await closeClient(client);
      server.kill('SIGTERM');
    },
  };
}

/** B3's floor: `waiters` readers behind pass-through processes, woken by one line through a hub. */
export async function startFanoutFloor(waiters: number): Promise<{ wake(): Promise<number[]>; stop(): void }> {
  const dir = tempDir('la-floor-');
  const socket = join(dir, 'hub.sock');
  const hub = await startListening(fixture('bareHub.mjs'), [socket]);
  const relays = Array.from({ length: waiters + 1 }, () => track(spawn(process.execPath, [bareRelayScript, socket], { stdio: ['pipe', 'pipe', 'ignore'] })));
  const arrivals: Array<((line: string) => void) | null> = relays.map(() => null);
  relays.forEach((relay, i) => {
    let pending = '';
    relay.stdout.on('data', (chunk: Buffer) => {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        arrivals[i]?.(line);
      }
    });
  });
  // Every relay connected to the hub: a line from the last one reaches all the others.
  for (let tries = 0; ; tries++) {
    const got = await fanOut(relays, arrivals, 2_000).catch(() => null);
    if (got) break;
    if (tries > 20) throw new Error('the fan-out floor did not connect');
  }
  return {
    wake: () => fanOut(relays, arrivals, 10_000),
    stop() {
      for (const relay of relays) relay.kill('SIGTERM');
      hub.kill('SIGTERM');
    },
  };
}

/** Writes one line to the last relay; resolves with each other relay's ms until its reader had it (parsed). */
function fanOut(relays: Array<ChildProcessByStdio<Writable, Readable, null>>, arrivals: Array<((line: string) => void) | null>, timeoutMs: number): Promise<number[]> {
  const waiters = relays.length - 1;
  return new Promise((resolve, reject) => {
    const times: number[] = new Array(waiters);
    let left = waiters;
    const timer = setTimeout(() => {
      arrivals.fill(null);
      reject(new Error('a reader of the fan-out floor got nothing'));
    }, timeoutMs);
    const sentAt = performance.now();
    for (let i = 0; i < waiters; i++) {
      arrivals[i] = (line) => {
        JSON.parse(line);
        times[i] = performance.now() - sentAt;
        arrivals[i] = null;
        if (--left === 0) {
          clearTimeout(timer);
          resolve(times);
        }
      };
    }
    relays[waiters].stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'wake up' } })}\n`);
  });
}

/**
 * B10's floor on the team's PostgreSQL (`url`): one connection commits a row and NOTIFY in a
 * SERIALIZABLE transaction (as a team write does); another, LISTENing, reads the row back when
 * the notification comes. Resolves with a function measuring one such wake (ms) and a stop.
 */
export async function startNotifyFloor(url: string): Promise<{ wake(): Promise<number>; stop(): Promise<void> }> {
  const writer = new pg.Client({ connectionString: url });
  const listener = new pg.Client({ connectionString: url });
  await writer.connect();
  await listener.connect();
  await writer.query('CREATE TABLE IF NOT EXISTS bench_notify_floor (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)');
  await listener.query('LISTEN bench_notify_floor');
  let heard: ((id: string) => void) | null = null;
  listener.on('notification', (n) => heard?.(n.payload ?? ''));
  return {
    async wake() {
      const started = performance.now();
      const read = new Promise<void>((resolve, reject) => {
        heard = (id) => {
          heard = null;
          listener.query('SELECT text FROM bench_notify_floor WHERE id = $1', [id]).then(() => resolve(), reject);
        };
      });
      await writer.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      const { rows } = await writer.query<{ id: string }>('INSERT INTO bench_notify_floor (text) VALUES ($1) RETURNING id', ['wake up']);
      await writer.query("SELECT pg_notify('bench_notify_floor', $1)", [rows[0].id]);
      await writer.query('COMMIT');
      await read;
      return performance.now() - started;
    },
    async stop() {
      await writer.end().catch(() => undefined);
      await listener.end().catch(() => undefined);
    },
  };
}
