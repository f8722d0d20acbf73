// The team database's LISTEN connection: one dedicated client that receives the hints other
// apps NOTIFY after their commits, and that doubles as the team's connection state. When it
// drops it reconnects with backoff, LISTENs again and reports the reconnect, so callers
// re-check what a hint lost meanwhile would have told them.
import pg from 'pg';
import type { ConnectionState } from '../port';
import { connectionReason } from './pgErrors';

export const CHANGE_CHANNEL = 'letagents_changes';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 5_000;

export interface ChangeListenerOptions {
  /** Opens a new client (not from the pool: LISTEN belongs to one session). */
  connect(): Promise<pg.Client>;
  /** Runs on every fresh connection before LISTEN (the schema check). */
  onConnected(client: pg.Client): Promise<void>;
  /** After LISTEN on a fresh connection (whether notifications really arrive is checked here). */
  onListening(client: pg.Client): Promise<void>;
  onNotification(payload: string): void;
  onState(state: ConnectionState): void;
  /** After a connection that had been lost is back and listening again. */
  onReconnect(): void;
}

export class ChangeListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private delay = FIRST_DELAY_MS;
  private wasOnline = false;
  private offlineSince: number | null = null;
  private stopped = false;
  private attempt: Promise<void> | null = null;

  constructor(private readonly options: ChangeListenerOptions) {}

  /** Connects now; resolves after this attempt (success or not: the state tells). */
  start(): Promise<void> {
    this.options.onState({ status: 'connecting' });
    return this.connectNow();
  }

  /** Resolves when the attempt in progress (if any) has ended. */
  async settled(): Promise<void> {
    await this.attempt;
  }

  /** Skips the remaining backoff (a write just reached the database, so it is back). */
  retrySoon(): void {
    if (this.client || this.stopped || this.attempt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.connectNow();
  }

  /** The listening connection while it is up (a write may use it between notifications). */
  session(): pg.Client | null {
    return this.client;
  }

  /** A write left the session unusable: closed, and reconnected like a dropped one. */
  drop(client: pg.Client, error: unknown): void {
    this.lost(client, error);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.attempt?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private connectNow(): Promise<void> {
    return (this.attempt ??= this.connectOnce().finally(() => (this.attempt = null)));
  }

  private async connectOnce(): Promise<void> {
    let client: pg.Client | null = null;
    try {
      client = await this.options.connect();
      client.on('error', (error) => this.lost(client!, error));
      client.on('end', () => this.lost(client!, new Error('Connection terminated')));
      client.on('notification', (n) => {
        if (n.channel === CHANGE_CHANNEL && n.payload) this.options.onNotification(n.payload);
      });
      await this.options.onConnected(client);
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      await this.options.onListening(client);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.delay = FIRST_DELAY_MS;
      this.offlineSince = null;
      this.options.onState({ status: 'online' });
      if (this.wasOnline) this.options.onReconnect();
      this.wasOnline = true;
    } catch (error) {
      await client?.end().catch(() => undefined);
      if (!this.stopped) this.scheduleRetry(error);
    }
  }

  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => undefined);
    if (!this.stopped) this.scheduleRetry(error);
  }

  private scheduleRetry(error: unknown): void {
    const delay = this.delay;
    this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    const now = Date.now();
    this.offlineSince ??= now;
    this.options.onState({
      status: 'offline',
      since: new Date(this.offlineSince).toISOString(),
      reason: connectionReason(error),
      retryAt: new Date(now + delay).toISOString(),
    });
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connectNow();
    }, delay);
    this.timer.unref();
  }
}
