// Connections to one team database: a pg pool configured from the checked team URL (TLS as
// the URL asks, values parsed like SQLite's), checked-out clients guarded against the
// 'error' events a dropped connection emits, and reads repeated on another connection when
// a pooled one turns out to have died (a server restart).
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { SqlValue } from '../port';
import type { TeamOfflineError } from '../storageErrors';
import { isConnectionError } from './pgErrors';
import { pgTypes } from './pgTypes';
import type { TeamUrl } from './teamUrl';

export interface TeamPoolOptions {
  size: number;
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
  private readonly config: pg.ClientConfig;

  constructor(url: TeamUrl, private readonly options: TeamPoolOptions) {
    this.config = clientConfigOf(url, options.connectTimeoutMs);
    this.pool = new pg.Pool({ ...this.config, max: options.size, idleTimeoutMillis: 30_000 });
    this.pool.on('error', ignore);
  }

  get size(): number {
    return this.options.size;
  }

  /** A connection outside the pool (LISTEN belongs to one session). */
  async newClient(): Promise<pg.Client> {
    const client = new pg.Client(this.config);
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
    for (let staleLeft = this.options.size + 1; ; staleLeft--) {
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
