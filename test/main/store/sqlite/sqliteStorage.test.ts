// The 'local' place's adapter: the same file, migrations and pragmas as before, the write
// queue's async SQLITE_BUSY backoff, reads on their own query-only connection, and the
// private file behind ':memory:'.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_VERSION } from '../../../../src/main/store/sqlite/migrations';
import { DatabaseBusyError } from '../../../../src/main/store/sqlite/beginImmediate';
import { cleanupSpawned, tempDir } from '../../../support/processes';
import { addMessage, addRoom, messageNumbers, openSqlite } from '../storageFixtures';

afterEach(() => cleanupSpawned());

describe('the SQLite storage', () => {
  it('opens the same file with the same migrations and pragmas as before', async () => {
    const path = join(tempDir(), 'letagents.db');
    const { storage } = openSqlite(path);
    await storage.write((tx) => addRoom(tx, 'r'));
    await storage.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(raw.prepare('SELECT room_id FROM rooms').pluck().all()).toEqual(['r']);
    raw.close();
  });

  it('enforces foreign keys in writes', async () => {
    const { storage } = openSqlite();
    await expect(storage.write((tx) => addMessage(tx, 'no-such-room', 'x'))).rejects.toThrow();
    await storage.close();
  });

  it('never writes through the read connection', async () => {
    const { storage } = openSqlite();
    await expect(storage.read((q) => q.run("INSERT INTO settings (key, value) VALUES ('a', 'b')"))).rejects.toThrow(/readonly|query_only/i);
    await storage.close();
  });

  it('retries while another program holds the write lock, without blocking the event loop', async () => {
    const path = join(tempDir(), 'busy.db');
    const { storage } = openSqlite(path);
    await storage.write((tx) => addRoom(tx, 'r'));
    const outside = new Database(path);
    outside.exec('BEGIN IMMEDIATE');
    const pending = storage.write((tx) => addMessage(tx, 'r', 'queued'));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await new Promise((r) => setTimeout(r, 100));
    // Reads go on while the write waits.
    expect(await storage.read((q) => messageNumbers(q, 'r'))).toEqual([]);
    outside.exec('COMMIT');
    expect(await pending).toBe(1);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
    outside.close();
    await storage.close();
  });

  it('gives up with database_busy when the lock stays taken', async () => {
    const path = join(tempDir(), 'stuck.db');
    const { storage } = openSqlite(path);
    const outside = new Database(path);
    outside.exec('BEGIN IMMEDIATE');
    const refused = await storage.write((tx) => addRoom(tx, 'r')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DatabaseBusyError);
    outside.exec('ROLLBACK');
    outside.close();
    await storage.close();
  }, 15_000);

  it("keeps ':memory:' in a private temporary file that is removed on close", async () => {
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('letagents-memory-')));
    const { storage } = openSqlite(':memory:');
    const made = readdirSync(tmpdir()).filter((n) => n.startsWith('letagents-memory-') && !before.has(n));
    expect(made).toHaveLength(1);
    await storage.write((tx) => addRoom(tx, 'r'));
    await storage.close();
    expect(existsSync(join(tmpdir(), made[0]))).toBe(false);
  });
});
