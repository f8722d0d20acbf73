// What the cross-machine tests share: one throwaway PostgreSQL cluster per test file and,
// for every test, a fresh team database with two in-process machines of the team on it
// (through PgBouncer in the pooler variant, or with `polling` through PgBouncer alone, where
// LISTEN delivers nothing and each app polls), closed with their agents after the test; SQL
// on the team database as a teammate's own program would run it; a worker an agent registers.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { cleanupSpawned, type HelperClient } from '../../support';
import { appTeamUrl } from '../../support/place';
import { startPgBouncer, startPostgres, type PgBouncer, type PgCluster } from '../../support/postgres';
import { inProcessMachine, TEAM, type InProcessMachine, type MachineOptions } from '../../support/teamMachines';
import { call, register } from '../../mcp/workerHandles/tools';

export interface TwoMachines {
  readonly cluster: PgCluster;
  /** The team database's direct URL. */
  readonly url: string;
  readonly a: InProcessMachine;
  readonly b: InProcessMachine;
  /** Rows of `sql` ($n placeholders) on the team database. */
  teamRows<T = Record<string, unknown>>(sql: string, ...params: unknown[]): Promise<T[]>;
}

export interface TwoMachinesOptions {
  /**
   * Both apps reach the team only through a transaction-mode PgBouncer with no direct endpoint:
   * LISTEN delivers nothing there, so each app polls for changes every second (changePoll.ts).
   */
  polling?: boolean;
  /** Each machine's options, asked for every test (a fake model started in beforeAll is known by then). */
  machines?: () => { readonly a?: MachineOptions; readonly b?: MachineOptions };
}

/** The team URL through `bouncer` alone, polled every second. */
export function polledUrl(bouncer: PgBouncer, directUrl: string): string {
  const url = new URL(bouncer.pooledUrl(directUrl));
  url.searchParams.set('poll_seconds', '1');
  return url.toString();
}

/** Installs the hooks (call it inside the describe); its fields are the current test's. */
export function twoMachinesPerTest(options: TwoMachinesOptions = {}): TwoMachines {
  let cluster: PgCluster | undefined;
  let bouncer: PgBouncer | undefined;
  let current: { url: string; a: InProcessMachine; b: InProcessMachine } | undefined;
  const now = () => {
    if (!current) throw new Error('The two machines exist inside a test only.');
    return current;
  };
  beforeAll(async () => {
    cluster = await startPostgres();
    if (options.polling) bouncer = await startPgBouncer(cluster);
  }, 60_000);
  afterAll(() => {
    bouncer?.stop();
    cluster?.stop();
  });
  beforeEach(async () => {
    const url = await cluster!.createDatabase();
    const appUrl = bouncer ? polledUrl(bouncer, url) : await appTeamUrl(url, cluster);
    const each = options.machines?.() ?? {};
    const [a, b] = await Promise.all([inProcessMachine('A', appUrl, each.a), inProcessMachine('B', appUrl, each.b)]);
    current = { url, a, b };
  }, 60_000);
  afterEach(async () => {
    const machines = current;
    current = undefined;
    await Promise.all([machines?.a.close(), machines?.b.close()]);
    await cleanupSpawned();
  });
  return {
    get cluster() {
      return cluster!;
    },
    get url() {
      return now().url;
    },
    get a() {
      return now().a;
    },
    get b() {
      return now().b;
    },
    teamRows: (sql, ...params) => teamRowsAt(now().url, sql, ...params),
  };
}

/** Rows of `sql` ($n placeholders) on the database at `url`, as a teammate's own program would run it. */
export async function teamRowsAt<T = Record<string, unknown>>(url: string, sql: string, ...params: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A worker registered in `room` from `client`: in `place` when given, else by name alone (the team is the default place). */
export async function teamWorker(client: HelperClient, room: string, name: string, place?: string) {
  const joined = await call(client, 'join_room', place ? { name: room, team: place } : { name: room });
  expect(joined, JSON.stringify(joined)).toMatchObject({ room_id: room, place: place ?? TEAM });
  return register(client, { room_id: joined.room_id, registration_key: `${name}-${room}-${process.pid}-4f7a9c2e81d6b035`, display_name: name });
}

/** The app API of `machine`, as its window calls it: the value, or a thrown error with the refusal. */
export async function machineApi<T = never>(machine: InProcessMachine, method: Parameters<InProcessMachine['api']>[0], input: unknown): Promise<T> {
  const result = await machine.api(method, input as never);
  if (!result.ok) throw new Error(`${method} on ${machine.name}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}
