// A team's PostgreSQL database: migrations on first connect (several apps at once, and one that
// holds rows), the schema version, a newer schema refused for writing, and the schema kept in
// step with SQLite's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { openDatabase } from '../../../../src/main/store/sqlite/database';
import { PG_SCHEMA_VERSION, pgMigrations } from '../../../../src/main/store/postgres/migrations';
import { pgMigration009 } from '../../../../src/main/store/postgres/migrations/009_openLists';
import { SCHEMA_VERSION } from '../../../../src/main/store/sqlite/migrations';
import { SchemaTooNewError } from '../../../../src/main/store/storageErrors';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../../support/postgres';
import { addRoom, openPostgres } from '../storageFixtures';

async function sql<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!runPostgresSuites)('a team database', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('is migrated once when four apps connect to an empty database at the same moment', async () => {
    const url = await cluster.createDatabase();
    const apps = await Promise.all(['acme', 'work', 'ci', 'laptop'].map((place) => openPostgres(url, place)));
    const [a, b] = apps;
    expect(await sql(url, 'SELECT id, version FROM letagents_schema')).toEqual([{ id: 1, version: PG_SCHEMA_VERSION }]);
    // Both can write at once into the one schema.
    await Promise.all([a.storage.write((tx) => addRoom(tx, 'from-a')), b.storage.write((tx) => addRoom(tx, 'from-b'))]);
    expect((await sql<{ room_id: string }>(url, 'SELECT room_id FROM rooms ORDER BY room_id')).map((r) => r.room_id)).toEqual(['from-a', 'from-b']);
    await Promise.all(apps.map((app) => app.storage.close()));
  });

  it('keeps the same schema version numbering as SQLite', () => {
    expect(PG_SCHEMA_VERSION).toBe(SCHEMA_VERSION);
  });

  it('refuses to write to a database set up by a newer app, says to update, and writes nothing', async () => {
    const url = await cluster.createDatabase();
    const first = await openPostgres(url);
    await first.storage.write((tx) => addRoom(tx, 'before'));
    await first.storage.close();
    await sql(url, `UPDATE letagents_schema SET version = ${PG_SCHEMA_VERSION + 1}`);
    const before = await sql(url, 'SELECT * FROM rooms');

    const { storage } = await openPostgres(url);
    const refused = await storage.write((tx) => addRoom(tx, 'after')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SchemaTooNewError);
    expect((refused as SchemaTooNewError).code).toBe('update_required');
    expect((refused as Error).message).toMatch(/newer version of LetAgents .*Update the app/);
    expect(await sql(url, 'SELECT * FROM rooms')).toEqual(before);
    expect(await sql(url, 'SELECT version FROM letagents_schema')).toEqual([{ version: PG_SCHEMA_VERSION + 1 }]);
    // Reading what is there still works.
    expect(await storage.read((q) => q.all('SELECT room_id FROM rooms'))).toEqual([{ room_id: 'before' }]);
    await storage.close();
  });

  it('migration 9 keeps managed agents, turns and activity row for row, and leaves their value lists to the app', async () => {
    const url = await cluster.createDatabase();
    const version = pgMigrations.indexOf(pgMigration009);
    // A database another app left at the version before, holding an agent with turns and activity.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (let v = 0; v < version; v++) await client.query(pgMigrations[v]);
      await client.query('INSERT INTO letagents_schema (id, version) VALUES (1, $1)', [version]);
      await client.query(`INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES ('lab', 'named', 'lab', 't', 't')`);
      await client.query(`INSERT INTO workers VALUES ('worker_1', 'hash-1', 'Juniper', 'juniper-key', 'Ada', 'GitHub Copilot CLI', 'copilot', 't')`);
      await client.query(
        `INSERT INTO managed_agents (agent_id, worker_id, room_id, provider, folder, instructions, model, permissions, turns_per_hour, daily_token_cap,
           desired_state, held_reason, provider_session_id, next_turn_number, next_activity_seq, created_at, updated_at, waiting_json)
         VALUES ('a1', 'worker_1', 'lab', 'copilot', '/w', 'Review PRs.', 'gpt-5', 'edit', 5, 200000, 'paused', 'daily_tokens', 's-9', 3, 3, 't0', 't1', '[]')`,
      );
      await client.query(`INSERT INTO managed_agent_turns VALUES ('a1', 1, 'message', 'Ada: hi', 'done', 't0', 't1', 10, 20, 0.5, NULL), ('a1', 2, 'run_now', 'Ada', 'failed', 't1', 't2', 1, 2, NULL, 'quota')`);
      await client.query(`INSERT INTO managed_agent_activity VALUES ('a1', 1, 1, 'trigger', 'Ada: hi', 't0'), ('a1', 2, 2, 'error', 'quota', 't1')`);
      await expect(client.query(`UPDATE managed_agents SET provider = 'gemini_fork'`)).rejects.toThrow(/managed_agents_provider_check/);
    } finally {
      await client.end();
    }
    // The columns of version 9 (migration 11 adds where the agent's room lives and its name).
    const rows = async () => Promise.all(['managed_agents', 'managed_agent_turns', 'managed_agent_activity'].map(async (t) =>
      (await sql(url, `SELECT * FROM ${t} ORDER BY 1, 2`)).map(({ place: _p, name: _n, ...row }: Record<string, unknown>) => row)));
    const before = await rows();

    const { storage } = await openPostgres(url);
    await storage.close();
    expect(await sql(url, 'SELECT version FROM letagents_schema')).toEqual([{ version: PG_SCHEMA_VERSION }]);
    // Every row and value kept (later migrations may add columns).
    expect(await rows()).toMatchObject(before);
    // Any provider, trigger kind, turn status or activity kind the app writes is stored; the fixed checks stay.
    await sql(url, `UPDATE managed_agents SET provider = 'gemini_fork'`);
    await sql(url, `UPDATE managed_agent_turns SET trigger_kind = 'automation', status = 'passed' WHERE number = 1`);
    await sql(url, `UPDATE managed_agent_activity SET kind = 'outcome' WHERE seq = 1`);
    await expect(sql(url, `UPDATE managed_agents SET permissions = 'everything'`)).rejects.toThrow(/managed_agents_permissions_check/);
    // The turns and activity still go with their agent.
    await sql(url, `DELETE FROM managed_agents WHERE agent_id = 'a1'`);
    expect(await sql(url, 'SELECT COUNT(*)::int AS n FROM managed_agent_turns')).toEqual([{ n: 0 }]);
    expect(await sql(url, 'SELECT COUNT(*)::int AS n FROM managed_agent_activity')).toEqual([{ n: 0 }]);
  });

  it('has the same tables, columns, nullability and index names as the SQLite schema', async () => {
    const url = await cluster.createDatabase();
    const { storage } = await openPostgres(url);
    await storage.close();

    const db = openDatabase(':memory:');
    // A primary key column is never null (STRICT tables), though SQLite reports it nullable.
    const sqliteColumns = db
      .prepare(
        `SELECT m.name AS table_name, c.name AS column_name, (c."notnull" OR c.pk > 0) AS not_null
         FROM sqlite_master m JOIN pragma_table_info(m.name) c
         WHERE m.type = 'table' AND m.name NOT LIKE 'messages_fts%' ORDER BY 1, 2`,
      )
      .all() as Array<{ table_name: string; column_name: string; not_null: number }>;
    const sqliteIndexes = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY 1").pluck().all() as string[]
    );
    db.close();

    // Engine-specific search structures: SQLite's FTS5 table, PostgreSQL's tsvector column
    // and its GIN index; PostgreSQL's schema version table (SQLite uses user_version); and its
    // change tracking for the poll fallback (changed_xid columns, their indexes, room_deletions
    // and member_departures: migrations 010 and 016), which nothing needs in a file of this computer.
    const pgColumns = await sql<{ table_name: string; column_name: string; not_null: number }>(
      url,
      `SELECT table_name, column_name, CASE WHEN is_nullable = 'NO' THEN 1 ELSE 0 END AS not_null
       FROM information_schema.columns WHERE table_schema = 'public'
         AND table_name NOT IN ('letagents_schema', 'room_deletions', 'member_departures') AND NOT (table_name = 'messages' AND column_name = 'search_vector')
         AND column_name <> 'changed_xid'
`,
    );
    const pgIndexes = await sql<{ indexname: string }>(
      url,
      `SELECT i.indexname FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.indexname <> 'messages_search' AND i.indexname NOT LIKE '%\\_changed' AND i.indexname NOT IN ('room_deletions_xid', 'member_departures_xid')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    );
    const normalise = (rows: Array<{ table_name: string; column_name: string; not_null: number }>) =>
      rows.map((r) => `${r.table_name}.${r.column_name}${r.not_null ? ' NOT NULL' : ''}`).sort();
    expect(normalise(pgColumns)).toEqual(normalise(sqliteColumns));
    expect(pgIndexes.map((r) => r.indexname).sort()).toEqual([...sqliteIndexes].sort());
  });

  it('hands back BIGINT, numeric and boolean values as SQLite does; a row holding an integer beyond 2^53 is left out and said once', async () => {
    const { storage } = await openPostgres(await cluster.createDatabase());
    const row = await storage.read((q) =>
      q.get<Record<string, unknown>>('SELECT CAST(9007199254740991 AS BIGINT) AS big, CAST(1.5 AS NUMERIC) AS num, TRUE AS yes, CAST(NULL AS BIGINT) AS none'),
    );
    expect(row).toEqual({ big: 9007199254740991, num: 1.5, yes: 1, none: null });
    const warned: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((line: unknown) => void warned.push(String(line)));
    try {
      const rows = (sql: string) => storage.read((q) => q.all<{ room_id: string }>(sql));
      const sql = `SELECT * FROM (VALUES ('a', CAST(1 AS BIGINT)), ('b', CAST(9007199254740993 AS BIGINT)), ('c', CAST(-9007199254740993 AS BIGINT))) AS t(room_id, n)`;
      expect(await rows(sql)).toEqual([{ room_id: 'a', n: 1 }]);
      expect(await rows(sql)).toEqual([{ room_id: 'a', n: 1 }]);
      expect(warned).toEqual([expect.stringContaining('room "b" holds n = 9007199254740993'), expect.stringContaining('room "c" holds n = -9007199254740993')]);
    } finally {
      warn.mockRestore();
    }
    await storage.close();
  });
});
