// Opening this computer's SQLite file (WAL, schema version, refusing newer or damaged files)
// and a write through the storage with the real message insert.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, DatabaseVersionError } from '../../../../src/main/store/sqlite/database';
import { SCHEMA_VERSION } from '../../../../src/main/store/sqlite/migrations';
import { SqliteStorage } from '../../../../src/main/store/sqlite/sqliteStorage';
import { EventBus } from '../../../../src/main/events/bus';
import { insertRoomRow } from '../../../../src/main/store/rooms';
import { insertMessageRow } from '../../../../src/main/store/messageRows';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'letagents-store-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('opening the database', () => {
  it('creates a WAL database at the current schema version with foreign keys on', () => {
    const db = openDatabase(join(tempDir(), 'a.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('refuses a database written by a newer version and leaves the file byte-identical', () => {
    const path = join(tempDir(), 'newer.db');
    const raw = new Database(path);
    raw.exec('CREATE TABLE future (x INTEGER)');
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(DatabaseVersionError);
    expect(() => openDatabase(path)).toThrow(/newer version of LetAgents/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a corrupted file with a clear error and does not overwrite it', () => {
    const path = join(tempDir(), 'corrupt.db');
    writeFileSync(path, Buffer.alloc(8192, 7));
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(/Cannot open the database/);
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('opening an existing database quickly', () => {
  it('still refuses an up-to-date WAL database whose table is damaged, and leaves it as it was', () => {
    const path = join(tempDir(), 'damaged.db');
    openDatabase(path).close(); // current schema, WAL: the next open takes the fast path
    const raw = new Database(path, { readonly: true });
    const rootpage = raw.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'tasks'").pluck().get() as number;
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    raw.close();
    const bytes = readFileSync(path);
    Buffer.alloc(pageSize, 0xa5).copy(bytes, (rootpage - 1) * pageSize);
    writeFileSync(path, bytes);
    expect(() => openDatabase(path)).toThrow(/Cannot open the database/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});

describe('writing through the storage', () => {
  it('publishes events only after commit, never for a rolled-back write, and a rolled-back message uses no number', async () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on('message.created', (e) => seen.push(`${e.roomId}#${e.number}`));
    const store = new SqliteStorage({ path: ':memory:', bus });
    await store.write((tx) => insertRoomRow(tx, { roomId: 'R', kind: 'named', displayName: 'R' }));
    await expect(
      store.write(async (tx) => {
        await insertMessageRow(tx, { roomId: 'R', kind: 'message', source: 'human', sender: 'Ada', text: 'lost' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(seen).toEqual([]);
    const n = await store.write((tx) =>
      insertMessageRow(tx, { roomId: 'R', kind: 'message', source: 'human', sender: 'Ada', text: 'kept' }),
    );
    // The rolled-back write used no number up.
    expect(n).toBe(1);
    expect(seen).toEqual(['R#1']);
    await store.close();
  });
});
