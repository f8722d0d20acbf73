// A read-only look at a team database for `team test`, `doctor` and Settings: can it be
// reached, at which schema, how far away (round trip), and is the connection encrypted and
// the server's certificate checked. One short connection of its own; it never migrates or
// writes, and never repeats the URL.
import pg from 'pg';
import { PG_SCHEMA_VERSION } from '../store/postgres/migrations';
import { schemaVersion } from '../store/postgres/migrate';
import { connectionReason } from '../store/postgres/pgErrors';
import { clientConfigOf } from '../store/postgres/teamPool';
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
}

const ROUND_TRIPS = 3;

/** Throws TeamUrlError for a URL that breaks the TLS rule; an unreachable database is an answer, not an error. */
export async function probeTeam(url: string, options: { allowPlaintext?: boolean; connectTimeoutMs?: number } = {}): Promise<TeamProbe> {
  const checked = checkTeamUrl(url, { allowPlaintext: options.allowPlaintext });
  const mode = checked.tls?.mode ?? null;
  const base = { appSchemaVersion: PG_SCHEMA_VERSION, host: checked.host };
  let client: pg.Client | null = null;
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
    return {
      ...base,
      reachable: true,
      reason: null,
      schemaVersion: await schemaVersion(client),
      latencyMs: Math.round(times.sort((a, b) => a - b)[Math.floor(ROUND_TRIPS / 2)] * 10) / 10,
      tls: { on, mode, verified: on && (mode === 'verify-full' || mode === 'verify-ca') },
      // "15.8 (Debian 15.8-0+deb12u1)": the version is enough.
      serverVersion: version.rows[0]?.server_version.split(' ')[0] ?? null,
    };
  } catch (error) {
    return { ...base, reachable: false, reason: connectionReason(error), schemaVersion: null, latencyMs: null, tls: { on: false, mode, verified: false }, serverVersion: null };
  } finally {
    await client?.end().catch(() => undefined);
  }
}
