// Disk and database faults (issue 9 §6, architecture.md §6, worker-handles.md §8): the
// database locked by another program (a write waits up to 5 s without blocking reads,
// then fails clearly, or succeeds once the lock is released), a data folder the app may
// not write, a database from a newer app version, and a corrupted database file. The
// app refuses each clearly, and never modifies or replaces the file it was given.
import Database from 'better-sqlite3';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiImplementation, createDispatcher } from '../../src/main/api';
import { openDatabase } from '../../src/main/store/sqlite/database';
import { SCHEMA_VERSION } from '../../src/main/store/sqlite/migrations';
import { cleanupSpawned, ensureCliBuilt, tempDir } from '../support';
import { storeSnapshot } from './lib/dbChecks';
import { holdWriteLock, sha256File, tryServe, unprivileged } from './lib/faults';
import { FUZZ_ROOM, startFuzzWorld, type FuzzWorld } from './lib/fuzzWorld';
import { callTool } from './lib/mcpCalls';
import { rawDbOf } from '../support/storage';

const BUSY = 'The database is locked by another program and stayed locked for 5 seconds. Close the other program and try again.';

const worlds: FuzzWorld[] = [];
afterAll(async () => {
  await Promise.all(worlds.map((w) => w.close()));
  await cleanupSpawned();
});

async function lockedWorld() {
  const world = await startFuzzWorld();
  worlds.push(world);
  const databaseFile = join(world.app.core.dataDir, 'letagents.db');
  const send = (text: string) => callTool(world.a, 'send_message', { worker_id: world.workerA, room_id: FUZZ_ROOM, text });
  const nextNumber = () => (rawDbOf(world.app.core.store).prepare('SELECT next_message_number AS n FROM rooms WHERE room_id = ?').get(FUZZ_ROOM) as { n: number }).n;
  return { world, databaseFile, send, nextNumber };
}

describe('the database locked by another program', () => {
  it('keeps answering reads while writes wait, then refuses them after 5 s and stores nothing', async () => {
    const { world, databaseFile, send, nextNumber } = await lockedWorld();
    const dispatch = createDispatcher(createApiImplementation(world.app, {}));
    const before = storeSnapshot(rawDbOf(world.app.core.store));
    const expectedNumber = nextNumber();
    const holder = holdWriteLock(databaseFile);
    await holder.locked;
    const started = Date.now();
    let writeSettled = false;
    const writing = send('written while locked').finally(() => (writeSettled = true));
    // A person's message from the app waits and fails the same way, with the same words.
    const personWriting = dispatch('messages.send', { roomId: FUZZ_ROOM, text: 'a person, while locked' });
    // The event loop is not blocked: a read answers while the write still waits.
    const read = await callTool(world.a, 'read_messages', { worker_id: world.workerA, room_id: FUZZ_ROOM, limit: 3 });
    expect(read.kind).toBe('ok');
    expect(writeSettled).toBe(false);
    const outcome = await writing;
    expect(outcome).toEqual({ kind: 'hard', text: BUSY });
    expect(await personWriting).toEqual({ ok: false, error: { code: 'database_busy', message: BUSY } });
    // It retried for the whole budget before giving up (10 ms rising to 250 ms, 5 s).
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
    await holder.release();
    await world.app.core.store.drain();
    expect(storeSnapshot(rawDbOf(world.app.core.store))).toBe(before);
    // No number was used up: the next message gets the one the refused write would have had.
    const next = await send('after the lock');
    expect(next.kind === 'ok' && next.doc.id).toBe(`msg_${expectedNumber}`);
  }, 30_000);

  it('stores the write once the other program lets go within the retry budget', async () => {
    const { world, databaseFile, send, nextNumber } = await lockedWorld();
    const expectedNumber = nextNumber();
    const holder = holdWriteLock(databaseFile);
    await holder.locked;
    const writing = send('waited for the lock');
    await new Promise((r) => setTimeout(r, 800)); // the lock held a while, within the retry budget
    await holder.release();
    const outcome = await writing;
    expect(outcome.kind === 'ok' && outcome.doc.id).toBe(`msg_${expectedNumber}`);
    const stored = rawDbOf(world.app.core.store).prepare('SELECT text FROM messages WHERE room_id = ? AND number = ?').get(FUZZ_ROOM, expectedNumber);
    expect(stored).toEqual({ text: 'waited for the lock' });
  }, 30_000);
});

describe('a data folder the app may not write', () => {
  it('makes serve fail with a clear message and leaves the folder as it was', async () => {
    await ensureCliBuilt();
    const parent = tempDir();
    chmodSync(parent, 0o755);
    const dataDir = join(parent, 'data');
    mkdirSync(dataDir);
    const asUser = unprivileged();
    // As root the folder belongs to root and serve runs as nobody; otherwise it is simply ours and read-only.
    chmodSync(dataDir, asUser ? 0o555 : 0o500);
    const attempt = await tryServe(dataDir, { asUser });
    expect(attempt.started).toBe(false);
    expect(attempt.code).not.toBe(0);
    expect(attempt.stderr).toContain(`The data folder ${dataDir} is read-only`);
    expect(readdirSync(dataDir)).toEqual([]);
    expect(statSync(dataDir).mode & 0o777).toBe(asUser ? 0o555 : 0o500);

    // A data folder that does not exist yet, under a folder the app may not write.
    chmodSync(parent, asUser ? 0o555 : 0o500);
    const missing = join(parent, 'not-yet');
    const second = await tryServe(missing, { asUser });
    chmodSync(parent, 0o755);
    expect(second.started).toBe(false);
    expect(second.stderr).toContain(`Cannot create the data folder ${missing}`);
    expect(readdirSync(parent)).toEqual(['data']);
  }, 30_000);
});

/** A real database with some content, in rollback-journal mode so the one file is all of it. */
function seededDatabaseFile(): { dataDir: string; file: string } {
  const dataDir = tempDir();
  const file = join(dataDir, 'letagents.db');
  openDatabase(file).close();
  const db = new Database(file);
  db.pragma('journal_mode = DELETE');
  db.prepare("INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES ('kept', 'named', 'kept', 'x', 'x')").run();
  db.close();
  return { dataDir, file };
}

describe('a database the app must not touch', () => {
  it('refuses a database written by a newer version and leaves it byte for byte', async () => {
    await ensureCliBuilt();
    const { dataDir, file } = seededDatabaseFile();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const hash = sha256File(file);
    const attempt = await tryServe(dataDir);
    expect(attempt.started).toBe(false);
    expect(attempt.stderr).toContain(`This database was written by a newer version of LetAgents (schema ${SCHEMA_VERSION + 1}; this app knows ${SCHEMA_VERSION}).`);
    expect(attempt.stderr).toContain('The file was not modified.');
    expect(sha256File(file)).toBe(hash);
    expect(readdirSync(dataDir)).toEqual(['letagents.db']);
  }, 30_000);

  const corruptions: Array<[string, (file: string) => void]> = [
    ['a file that is not a database at all', (file) => writeFileSync(file, randomBytes(16_384))],
    ['a database with a damaged table (its schema intact)', (file) => {
      const db = new Database(file, { readonly: true });
      const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'rooms'").get() as { rootpage: number };
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
      const bytes = readFileSync(file);
      randomBytes(pageSize).copy(bytes, (rootpage - 1) * pageSize);
      writeFileSync(file, bytes);
    }],
    ['a database cut short', (file) => truncateSync(file, 4_096 + 1_000)],
  ];
  for (const [what, corrupt] of corruptions) {
    it(`refuses ${what} with a clear error and does not overwrite it`, async () => {
      await ensureCliBuilt();
      const { dataDir, file } = seededDatabaseFile();
      corrupt(file);
      const hash = sha256File(file);
      const attempt = await tryServe(dataDir);
      expect(attempt.started).toBe(false);
      expect(attempt.code).not.toBe(0);
      expect(attempt.stderr).toContain(`Cannot open the database at ${file}:`);
      expect(attempt.stderr).toContain('The file was not modified.');
      expect(sha256File(file)).toBe(hash);
      expect(readdirSync(dataDir)).toEqual(['letagents.db']);
    }, 30_000);
  }
});
