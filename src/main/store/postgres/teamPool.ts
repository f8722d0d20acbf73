// Connections to one team database: a small pg pool configured from the checked team URL (TLS
// as the URL asks, values parsed like SQLite's) that closes its connections when they sit
// unused, so an idle app holds only its LISTEN connection; checked-out clients guarded against
// the 'error' events a dropped connection emits, and reads repeated on another connection when
// a pooled one turns out to have died (a server restart). Every query is fit for a
// transaction-mode pooler: unnamed statements only, no session settings.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { SqlValue } from '../port';
import type { TeamOfflineError } from '../storageErrors';
import { isConnectionError } from './pgErrors';
import { pgTypes } from './pgTypes';
import type { TeamUrl } from './teamUrl';

export interface TeamPoolOptions {
  /** Overrides the URL's pool_max. */
  size?: number;
  connectTimeoutMs: number;
  /** The error to throw when the database cannot be reached. */
  offline(error: unknown): TeamOfflineError;
  /** A pooled connection was found dead. */
  onLost(): void;
}

// Without a listener, an 'error' event (a connection dropped while idle or checked out) crashes the app.
const ignore = () => undefined;

export class TeamPool {
  private readonly pool: pg.Pool;
  private readonly listenConfig: pg.ClientConfig;
  readonly size: number;
  /** Whether LISTEN goes to a direct endpoint of its own (the URL's listen_url). */
  readonly directListen: boolean;

  constructor(url: TeamUrl, private readonly options: TeamPoolOptions) {
    const config = clientConfigOf(url, options.connectTimeoutMs);
    this.listenConfig = url.listen ? clientConfigOf(url.listen, options.connectTimeoutMs) : config;
    this.directListen = url.listen !== null;
    this.size = options.size ?? url.pool.max;
    this.pool = new pg.Pool({ ...config, max: this.size, min: 0, idleTimeoutMillis: url.pool.idleMs });
    this.pool.on('error', ignore);
  }

  /** Connections the pool holds now (busy or idle), for `doctor` and the benchmarks. */
  get held(): number {
    return this.pool.totalCount;
  }

  /** Queries waiting for a connection. */
  get waiting(): number {
    return this.pool.waitingCount;
  }

  /** A connection outside the pool, to the LISTEN endpoint (LISTEN belongs to one session). */
  async newClient(): Promise<pg.Client> {
    const client = new pg.Client(this.listenConfig);
    client.on('error', ignore);
    await client.connect();
    return client;
  }

  /** A pooled connection; TeamOfflineError when none can be opened. */
  async checkout(): Promise<pg.PoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.options.offline(error);
    }
    client.on('error', ignore);
    return client;
  }

  /** Returns a connection to the pool, or closes it when `broken`. */
  checkin(client: pg.PoolClient, broken: boolean): void {
    client.off('error', ignore);
    client.release(broken ? true : undefined);
  }

  /** One statement on a pooled connection: a read, safe to repeat on another one when its connection was dead. */
  async query(text: string, values: SqlValue[]): Promise<pg.QueryResult> {
    for (let staleLeft = this.size + 1; ; staleLeft--) {
      const client = await this.checkout();
      let broken = false;
      try {
        return await client.query(text, values);
      } catch (error) {
        broken = isConnectionError(error);
        if (!broken) throw error;
        this.options.onLost();
        if (staleLeft <= 1) throw this.options.offline(error);
      } finally {
        this.checkin(client, broken);
      }
    }
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** The pg settings of a checked team URL: TLS as it asks, values parsed like SQLite's. */
export function clientConfigOf(url: TeamUrl, connectTimeoutMs: number): pg.ClientConfig {
  const ca = url.tls?.rootCertPath ? readFileSync(url.tls.rootCertPath, 'utf8') : undefined;
  const ssl = !url.tls
    ? false
    : url.tls.mode === 'verify-full'
      ? { rejectUnauthorized: true, ca }
      : url.tls.mode === 'verify-ca' || ca
        ? { rejectUnauthorized: true, ca, checkServerIdentity: () => undefined }
        : // libpq's require: encrypted, the certificate not checked (verify-full also checks who answers).
          { rejectUnauthorized: false };
  return {
    connectionString: url.connectionString,
    ssl,
    types: pgTypes,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    application_name: 'letagents-desktop',
  };
}
