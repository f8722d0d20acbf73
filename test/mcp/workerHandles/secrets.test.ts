// Binding tokens never leave memory and raw registration keys are never stored
// (worker-handles.md §1–2, §11 case 6). In-process app behind the real agent socket with
// real helpers, so the test can learn every token the app hands out (a test-only read of
// the bindings) and then look for each one in every output, log, row and file.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HelperClient } from '../../support';
import { startInProcessApp, type InProcessApp } from './apps';
import { call, sha256hex, type Reply } from './tools';
import { rawDbOf } from '../../support/storage';
import { placeRows, placeTables, suiteClusterDir, useOwnCluster } from '../../support/place';

// The scan below reads every file of the team's cluster: a cluster of this file's own, not the run's shared one.
useOwnCluster();

let inproc: InProcessApp;
const logs: string[] = [];

beforeAll(async () => {
  // Everything the app logs in this process, by any route.
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(' ')));
  }
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      logs.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof stream.write);
  }
  inproc = await startInProcessApp();
}, 60_000);

afterAll(async () => {
  vi.restoreAllMocks();
  await inproc?.close();
});

/** Every regular file under `dir`, with its bytes (the socket is skipped). */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) return filesUnder(path);
    return stat.isFile() ? [{ path, bytes: readFileSync(path) }] : [];
  });
}

/** Every value of every column of every row of every table, as text or bytes: this computer's file, and the team's database in the team variant. */
async function allDatabaseValues(): Promise<(string | Buffer)[]> {
  const db = rawDbOf(inproc.app.core.store);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  const rows = tables.flatMap((table) => db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]);
  if (inproc.teamUrl) for (const table of await placeTables(inproc)) rows.push(...(await placeRows(inproc, `SELECT * FROM "${table}"`)));
  return rows.flatMap((row) => Object.values(row).filter((v): v is string | Buffer => typeof v === 'string' || Buffer.isBuffer(v)));
}

describe('secrets (in-process: tokens are only reachable in memory)', () => {
  it('case 6: no tool output, log line, database row or file holds a connection token; only the key hash is stored', async () => {
    const [c1, c2, c3] = await Promise.all([inproc.connect(), inproc.connect(), inproc.connect()]);
    const outputs: string[] = [];
    const tokens = new Set<string>();
    const tracked = async (client: HelperClient, name: string, args: Record<string, unknown> = {}): Promise<Reply> => {
      const reply = await call(client, name, args);
      outputs.push(JSON.stringify(reply));
      for (const token of inproc.boundTokens()) tokens.add(token);
      return reply;
    };
    const keys = [1, 2].map((n) => `case-6-key-${n}-${randomBytes(12).toString('hex')}`);

    // A day's worth of handle traffic: create, legacy, implicit, send, wait, take over, disconnect, resume, recover.
    const room = (await tracked(c1, 'join_room', { name: 'case-6' })).room_id;
    const w1 = await tracked(c1, 'register_agent_session', { room_id: room, registration_key: keys[0], display_name: 'Juniper' });
    const w2 = await tracked(c1, 'register_agent_session', { room_id: room, registration_key: keys[1] });
    await tracked(c1, 'register_agent_session', { room_id: room, display_name: 'Legacy' });
    await tracked(c3, 'join_room', { name: room });
    await tracked(c3, 'send_message', { text: 'implicit hello' });
    await tracked(c1, 'send_message', { worker_id: w1.worker_id, text: 'hello from Juniper' });
    await tracked(c1, 'wait_for_messages', { worker_id: w1.worker_id, timeout: 1_000 });
    await tracked(c2, 'register_agent_session', { worker_id: w1.worker_id, room_id: room });
    await tracked(c1, 'send_message', { worker_id: w1.worker_id, text: 'replaced' });
    await tracked(c1, 'disconnect_agent_session', { worker_id: w2.worker_id });
    await tracked(c1, 'register_agent_session', { worker_id: w2.worker_id, room_id: room });
    await tracked(c1, 'register_agent_session', { room_id: room, display_name: w2.agent_session.display_name, recover_lost_worker: true });
    await tracked(c1, 'register_agent_session', { room_id: room, registration_key: keys[1] });
    await tracked(c2, 'read_messages', { worker_id: w1.worker_id });
    await tracked(c2, 'get_board', { worker_id: w1.worker_id });
    await tracked(c2, 'get_current_room', {});
    await tracked(c2, 'wait_for_messages', { worker_id: w1.worker_id, timeout: 1_000 });

    // Rotations and new sessions gave out several tokens, each 32 random bytes in base64url.
    expect(tokens.size).toBeGreaterThanOrEqual(6);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const texts = [...outputs, ...logs, ...[c1, c2, c3].map((c) => c.stderrText)];
    const values = await allDatabaseValues();
    // In the team variant the rows live in the team's PostgreSQL: its cluster's files (WAL included) are scanned too.
    const clusterDir = suiteClusterDir();
    const files = [...filesUnder(inproc.dataDir), ...(clusterDir ? filesUnder(clusterDir) : [])];
    expect(files.map((f) => f.path)).toContain(join(inproc.dataDir, 'letagents.db'));
    const foundIn = (secret: string) => [
      ...texts.filter((t) => t.includes(secret)).map((t) => `output/log: ${t.slice(0, 80)}`),
      ...values.filter((v) => v.includes(secret)).map(() => 'database row'),
      ...files.filter((f) => f.bytes.includes(secret)).map((f) => `file ${f.path}`),
    ];
    // The scan is not blind: a worker_id (a reference, not a secret) is found in every kind of place.
    const control = foundIn(w1.worker_id);
    for (const place of ['output/log', 'database row', 'file']) expect(control.some((f) => f.startsWith(place)), place).toBe(true);

    for (const token of tokens) expect(foundIn(token), 'a connection token escaped').toEqual([]);
    for (const key of keys) {
      expect(foundIn(key), 'a raw registration_key was stored or shown').toEqual([]);
      const hashes = await placeRows<{ h: string }>(inproc, 'SELECT registration_key_hash AS h FROM workers WHERE registration_key_hash = ?', sha256hex(key));
      expect(hashes.map((r) => r.h)).toEqual([sha256hex(key)]);
    }
  });
});
