// A read-only look at a team database for `team test`, `doctor` and Settings: can it be
// reached, at which schema, how far away (round trip), is the connection encrypted and the
// server's certificate checked, and do other machines' hints arrive (LISTEN works on the
// listen endpoint) or must changes be polled for. Two short connections of its own; it never
// migrates or writes, and never repeats the URL.
import pg from 'pg';
import { PG_SCHEMA_VERSION } from '../store/postgres/migrations';
import { schemaVersion } from '../store/postgres/migrate';
import { connectionReason } from '../store/postgres/pgErrors';
import { clientConfigOf } from '../store/postgres/teamPool';
import { deliversNotifications } from '../store/postgres/listenProbe';
import { checkTeamUrl, type TlsMode } from '../store/postgres/teamUrl';

export interface TeamTls {
  /** The connection is encrypted (as the server reports it). */
  readonly on: boolean;
  /** What the URL asks for; null: plaintext. */
  readonly mode: TlsMode | null;
  /** The server's certificate was checked (verify-full also checks the host name). */
  readonly verified: boolean;
}

export interface TeamProbe {
  readonly reachable: boolean;
  /** Why it could not be reached (or refused us), in words; null when reachable. */
  readonly reason: string | null;
  /** The team database's schema (0: not set up yet); null when unreachable. */
  readonly schemaVersion: number | null;
  /** The newest schema this app knows. */
  readonly appSchemaVersion: number;
  /** Median of three round trips of a trivial query, in milliseconds. */
  readonly latencyMs: number | null;
  readonly tls: TeamTls;
  readonly host: string;
  readonly serverVersion: string | null;
  /**
   * How other machines' changes reach this app: 'listen' (at once), or 'poll' (LISTEN does not
   * deliver on the endpoint, a transaction-mode pooler: re-checked every pollSeconds); `direct`
   * when the URL names a listen endpoint of its own. null when unreachable.
   */
  readonly wakeUps: { readonly mode: 'listen' | 'poll'; readonly direct: boolean; readonly pollSeconds: number } | null;
}

const ROUND_TRIPS = 3;

/** Throws TeamUrlError for a URL that breaks the TLS rule; an unreachable database is an answer, not an error. */
export async function probeTeam(url: string, options: { allowPlaintext?: boolean; connectTimeoutMs?: number } = {}): Promise<TeamProbe> {
  const checked = checkTeamUrl(url, { allowPlaintext: options.allowPlaintext });
  const mode = checked.tls?.mode ?? null;
  const base = { appSchemaVersion: PG_SCHEMA_VERSION, host: checked.host };
  let client: pg.Client | null = null;
  let listener: pg.Client | null = null;
  try {
    // Inside the try: reading an sslrootcert file that is missing is an answer too.
    client = new pg.Client(clientConfigOf(checked, options.connectTimeoutMs ?? 5_000));
    client.on('error', () => undefined);
    await client.connect();
    const times: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const started = performance.now();
      await client.query('SELECT 1');
      times.push(performance.now() - started);
    }
    const ssl = await client.query<{ ssl: number | null }>('SELECT CASE WHEN ssl THEN 1 ELSE 0 END AS ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
    const version = await client.query<{ server_version: string }>('SHOW server_version');
    const on = ssl.rows[0]?.ssl === 1;
    const queries = client;
    listener = new pg.Client(clientConfigOf(checked.listen ?? checked, options.connectTimeoutMs ?? 5_000));
    listener.on('error', () => undefined);
    await listener.connect();
    const listens = await deliversNotifications(listener, (text, values) => queries.query(text, values));
    return {
      ...base,
      reachable: true,
      reason: null,
      schemaVersion: await schemaVersion(client),
      latencyMs: Math.round(times.sort((a, b) => a - b)[Math.floor(ROUND_TRIPS / 2)] * 10) / 10,
      tls: { on, mode, verified: on && (mode === 'verify-full' || mode === 'verify-ca') },
      // "15.8 (Debian 15.8-0+deb12u1)": the version is enough.
      serverVersion: version.rows[0]?.server_version.split(' ')[0] ?? null,
      wakeUps: { mode: listens ? 'listen' : 'poll', direct: checked.listen !== null, pollSeconds: checked.pool.pollMs / 1000 },
    };
  } catch (error) {
    return { ...base, reachable: false, reason: connectionReason(error), schemaVersion: null, latencyMs: null, tls: { on: false, mode, verified: false }, serverVersion: null, wakeUps: null };
  } finally {
    await client?.end().catch(() => undefined);
    await listener?.end().catch(() => undefined);
  }
}
