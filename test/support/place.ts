// The place the MCP tool suite and the worker-handle acceptance cases run their rooms in
// (issue 12: they pass against a team room as well as a local one). `npm test` runs them
// as they are (this computer's rooms), and with LETAGENTS_TEST_PLACE=team, where
// every app they start knows a team "suite" on a throwaway PostgreSQL (one cluster for all
// those files, started once per run by teamClusterSetup.ts; a database per test) through
// LETAGENTS_TEAM_URL_SUITE, with "suite" as the default place, so every room
// an agent joins by name is that team's. Reads of "the database" go to the rooms' place.
// With LETAGENTS_TEST_POOLER=pgbouncer as well (issue 29), the team's queries go through a
// real PgBouncer in transaction mode in front of that cluster, its listener directly
// (listen_url), as a team behind Supabase's or its own pooler runs; it resets each server
// connection after every transaction, so a query leaning on session state fails every time.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { toNumberedPlaceholders } from '../../src/main/store/postgres/placeholders';
import { pgTypes } from '../../src/main/store/postgres/pgTypes';
import { pooledUrlOn, sharedPostgres, startPgBouncer, startPostgres, type PgCluster } from './postgres';
import { withListenUrl } from '../../src/main/store/postgres/teamUrl';
import { setDefaultPlace } from './teams';

/** The team of the suite's rooms when LETAGENTS_TEST_PLACE=team. */
export const SUITE_TEAM = 'suite';
export const inTeamPlace = process.env.LETAGENTS_TEST_PLACE === 'team';
/** 'local', or the team the suite's rooms live in. */
export const TEST_PLACE = inTeamPlace ? SUITE_TEAM : 'local';
/** The team variant through a transaction-mode PgBouncer (the listener direct). */
export const throughPooler = inTeamPlace && process.env.LETAGENTS_TEST_POOLER === 'pgbouncer';

/** The resource URI base of a room of the suite's place (mcp resources: letagents://rooms/… or letagents://teams/<team>/rooms/…). */
export const roomUriBase = (roomId: string) =>
  `letagents://${inTeamPlace ? `teams/${SUITE_TEAM}/` : ''}rooms/${encodeURIComponent(roomId)}`;

let cluster: PgCluster | null = null;
let ownCluster = false;
/** A PgBouncer (its port) per cluster, started on first use (a file may start clusters of its own); stopped with its cluster. */
const poolers = new Map<PgCluster, Promise<number>>();
/** The run's shared cluster (teamClusterSetup.ts), or else one of this file's own (useOwnCluster), stopped after its tests. */
async function suiteCluster(): Promise<PgCluster> {
  if (cluster) return cluster;
  const shared = ownCluster ? null : inject('teamCluster');
  if (!shared) return (cluster = await startPostgres());
  cluster = sharedPostgres(shared.port, shared.dir);
  if (shared.bouncerPort !== null) poolers.set(cluster, Promise.resolve(shared.bouncerPort));
  return cluster;
}

/** This file's team rooms live on a cluster of its own (call at the top of the file: it reads the cluster's files); stopped after its tests, with its PgBouncer. */
export function useOwnCluster(): void {
  ownCluster = true;
  afterAll(() => {
    if (cluster) poolers.delete(cluster);
    cluster?.stop();
    cluster = null;
  });
}

/**
 * The URL an app of the suite is given for the team database at `directUrl`: that one, or
 * (through the pooler) PgBouncer's with the direct one to LISTEN on.
 */
export async function appTeamUrl(directUrl: string, onCluster?: PgCluster): Promise<string> {
  if (!throughPooler) return directUrl;
  const target = onCluster ?? (await suiteCluster());
  if (!poolers.has(target)) poolers.set(target, startPgBouncer(target, { resetEveryTransaction: true }).then((b) => b.port));
  return withListenUrl(pooledUrlOn(await poolers.get(target)!, directUrl), directUrl);
}

/** The folder of this test file's PostgreSQL cluster (team variant), else null: its data files hold the team's rows. */
export const suiteClusterDir = (): string | null => cluster?.dir ?? null;

/** Where an app of the suite keeps its rooms: its data folder, and in the team variant its team database. */
export interface PlacedApp {
  readonly dataDir: string;
  /** The team database's URL (team variant), else null. */
  readonly teamUrl: string | null;
}

/**
 * Prepares a data folder for the suite's place: in the team variant, a fresh team database,
 * and the folder's settings naming the team the default place. Returns the environment the
 * app needs (LETAGENTS_TEAM_URL_SUITE, through the pooler when asked) and the database's
 * direct URL (for reading it as another program would); nothing for local rooms.
 */
export async function preparePlace(dataDir: string, teamUrl?: string): Promise<{ env: Record<string, string>; teamUrl: string | null }> {
  if (!inTeamPlace) return { env: {}, teamUrl: null };
  const url = teamUrl ?? (await (await suiteCluster()).createDatabase());
  await setDefaultPlace(dataDir, SUITE_TEAM);
  return { env: { LETAGENTS_TEAM_URL_SUITE: await appTeamUrl(url) }, teamUrl: url };
}

/** Rows of `sql` (portable SQL, `?` placeholders) from the database that holds the app's rooms, read as another program would. */
export async function placeRows<T = Record<string, unknown>>(app: PlacedApp, sql: string, ...params: unknown[]): Promise<T[]> {
  if (app.teamUrl) {
    const client = new pg.Client({ connectionString: app.teamUrl, types: pgTypes });
    await client.connect();
    try {
      return (await client.query(toNumberedPlaceholders(sql), params)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(app.dataDir, 'letagents.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The first row of `sql`, or undefined. */
export async function placeRow<T = Record<string, unknown>>(app: PlacedApp, sql: string, ...params: unknown[]): Promise<T | undefined> {
  return (await placeRows<T>(app, sql, ...params))[0];
}

/** The tables of the rooms' database (engine-specific search structures and the schema table left out). */
export async function placeTables(app: PlacedApp): Promise<string[]> {
  const rows = app.teamUrl
    ? await placeRows<{ name: string }>(app, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'letagents_schema' ORDER BY 1")
    : await placeRows<{ name: string }>(app, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts%' ORDER BY name");
  return rows.map((r) => r.name);
}
