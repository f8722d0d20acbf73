// Bringing a team database to this app's schema on first connect. Each step runs in its own
// transaction under a transaction-scoped advisory lock, so two apps connecting at once never
// race (the second waits, then finds the work done), and it holds through a transaction-mode
// pooler (PgBouncer, Supabase, RDS Proxy), which gives no session to keep a lock across
// statements. A database at a newer schema is left untouched.
import type pg from 'pg';
import { PG_SCHEMA_VERSION, pgMigrations } from './migrations';

/** pg_advisory_xact_lock key of LetAgents' migrations (any constant; the same in every app version). */
const MIGRATION_LOCK = 7_360_251_202;

export interface SchemaCheck {
  /** The version the database was at before this connect. */
  readonly found: number;
  /** The version it is at now (equal to `found` when it is newer than this app knows). */
  readonly version: number;
  readonly newer: boolean;
}

export async function migrateTeamDatabase(client: pg.ClientBase): Promise<SchemaCheck> {
  let found: number | null = null;
  for (;;) {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const version = await schemaVersion(client);
      found ??= version;
      if (version >= PG_SCHEMA_VERSION) {
        await client.query('COMMIT');
        return version > PG_SCHEMA_VERSION ? { found, version, newer: true } : { found, version, newer: false };
      }
      await client.query(pgMigrations[version]);
      await client.query(
        'INSERT INTO letagents_schema (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version',
        [version + 1],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}

/** 0 for an empty database. */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const exists = await client.query<{ t: string | null }>("SELECT to_regclass('letagents_schema')::text AS t");
  if (exists.rows[0].t === null) return 0;
  const row = await client.query<{ version: number }>('SELECT version FROM letagents_schema WHERE id = 1');
  return row.rows[0]?.version ?? 0;
}
