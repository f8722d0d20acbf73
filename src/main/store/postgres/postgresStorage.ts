// A team's place: its PostgreSQL database behind the storage port. Writes are SERIALIZABLE
// transactions on a pooled connection, re-run (bounded, with jittered backoff) when another
// machine's transaction conflicts, so the domain's rules hold across machines; events and
// afterCommit run only for the attempt that committed. Hints for other apps are NOTIFYed
// inside the transaction, which PostgreSQL delivers only at COMMIT. A dedicated LISTEN
// connection (to the URL's listen_url when the URL names a transaction-mode pooler) receives
// theirs and tells whether the team is reachable; the app's idle-time bookkeeping (heartbeat,
// last-seen batch) is written on that connection too, so an idle app holds no other. When that
// endpoint does not deliver notifications (a pooler, no direct endpoint given), a bounded poll
// asks which rooms changed since the last one and passes on only that (changePoll.ts).
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { EventBus } from '../../events/bus';
import { placed } from '../../events/types';
import type { ChangeHint, ConnectionState, Queryable, Storage, Tx, WriteOptions } from '../port';
import { SchemaTooNewError, TeamCommitUnknownError, TeamOfflineError, WriteConflictError } from '../storageErrors';
import { CommitEffects, WriteQueue } from '../writeQueue';
import { CHANGE_CHANNEL, ChangeListener } from './changeListener';
import { migrateTeamDatabase, type SchemaCheck } from './migrate';
import { PG_SCHEMA_VERSION } from './migrations';
import { connectionReason, isConnectionError, isSerializationFailure, isUniqueViolation } from './pgErrors';
import { PgQueryable, PgTx } from './pgQueries';
import { postgresDialect } from './postgresDialect';
import { TeamPool } from './teamPool';
import { checkTeamUrl } from './teamUrl';
import { hintsOf, parseHint } from './changeHints';
import { HintCoalescer, type HintCounts } from './hintCoalescer';
import { deliversNotifications } from './listenProbe';
import { ChangePoll, type PollCounts } from './changePoll';
import { UncountableRows } from './uncountable';
import { hopTrace } from '../../../shared-node/hopTrace';

/** The bench's per-hop timestamps (LETAGENTS_HOP_TRACE); null, and free, otherwise. */
const hops = hopTrace('app');

export interface PostgresStorageOptions {
  /** The team's name in this app. */
  place: string;
  url: string;
  /** Allows a URL to another host without TLS (the person chose it knowingly). */
  allowPlaintext?: boolean;
  bus: EventBus;
  /** Clock for timestamps; by default the database server's, so every machine of a team stamps alike. */
  clock?: () => Date;
  /** Overrides the URL's pool_max (default 4). */
  poolSize?: number;
  connectTimeoutMs?: number;
  /** Attempts a write that keeps meeting serialization failures makes at least (default 10). */
  maxWriteAttempts?: number;
  /** How long such a write keeps trying once it made those attempts (default 5 s, SQLite's lock budget). */
  writeConflictBudgetMs?: number;
}

/** How long a query behind a pooler waits for a lost listener to reconnect before the team counts as down. */
const BACK_WITHIN_MS = 3_000;

const SERVER_NOW = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export class PostgresStorage implements Storage {
  readonly place: string;
  readonly dialect = postgresDialect;
  readCount = 0;
  /** This app's id in NOTIFY payloads, so it ignores the hints it sent itself. */
  readonly appId = randomBytes(8).toString('hex');
  private readonly pool: TeamPool;
  private readonly listener: ChangeListener;
  private readonly queue = new WriteQueue();
  private readonly reader: PgQueryable;
  /** Rows holding integers beyond 2^53 (forged): left out of every read, said once. */
  private readonly uncountable: UncountableRows;
  private schema: Promise<SchemaCheck> | null = null;
  private readonly pollMs: number;
  /** Set while LISTEN does not deliver: asks which rooms changed, each pollMs. */
  private poll: NodeJS.Timeout | null = null;
  private readonly changes: ChangePoll;
  private state: ConnectionState = { status: 'connecting' };
  private serverOffsetMs = 0;
  private closing: Promise<void> | null = null;
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly hintListeners = new Set<(hint: ChangeHint) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  /** Other apps' hints, coalesced per room and bounded; dropped ones stand for "re-check everything" (as after a reconnect). */
  private readonly hints = new HintCoalescer(
    (hint) => {
      if (hops && hint.type === 'message.created') hops.mark('app.hint_out', `${hint.roomId}:${hint.number}`);
      callEach(this.hintListeners, hint);
    },
    () => callEach(this.reconnectListeners, undefined),
  );

  /** Checks the URL (TeamUrlError) and starts connecting; an unreachable database is not an error here: the state says so. */
  constructor(private readonly options: PostgresStorageOptions) {
    this.place = options.place;
    const url = checkTeamUrl(options.url, { allowPlaintext: options.allowPlaintext });
    this.pollMs = url.pool.pollMs;
    this.pool = new TeamPool(url, {
      size: options.poolSize,
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      offline: (error) => this.offline(error),
      onLost: () => this.noteLost(),
    });
    this.uncountable = new UncountableRows(this.place);
    this.reader = new PgQueryable((text, values) => this.pool.query(text, values), this.uncountable);
    this.changes = new ChangePoll({
      query: (text, values) => this.pool.query(text, values),
      onMessage: (roomId, number) => this.hints.add({ type: 'message.created', roomId, number, place: this.place, remote: true }),
      onRecheck: () => callEach(this.reconnectListeners, undefined),
      onTurn: (roomId, first, last) =>
        this.hints.add({ type: 'message.receipts', roomId, sessionId: '', first, last, turn: true, place: this.place, remote: true }),
      onUncountable: (roomId, column, text) => this.uncountable.report(roomId, column, text),
    });
    this.listener = new ChangeListener({
      connect: () => this.pool.newClient(),
      // Checked again on every (re)connect: a newer app may have migrated the database meanwhile.
      onConnected: async (client) => {
        this.schema = null;
        await this.ensureSchema(client);
      },
      onListening: (client) => this.checkListening(client),
      onNotification: (payload) => this.receive(payload),
      onState: (state) => this.setState(state),
      onReconnect: () => callEach(this.reconnectListeners, undefined),
    });
    void this.listener.start();
  }

  /**
   * Resolves once the database is reachable, at a schema this app can read, and listening for
   * other apps' hints; TeamOfflineError when the attempt in progress failed.
   */
  async ready(): Promise<SchemaCheck> {
    // The listener's connect checks the schema on its own connection: no pooled one is opened for it.
    await this.listener.settled();
    const schema = await this.ensureSchema();
    if (this.state.status !== 'online') {
      throw new TeamOfflineError(this.place, this.state.status === 'offline' ? this.state.reason : 'still connecting');
    }
    return schema;
  }

  now(): string {
    return (this.options.clock?.() ?? new Date(Date.now() + this.serverOffsetMs)).toISOString();
  }

  async read<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    if (this.closing) throw new Error('The store is closed.');
    await this.refuseWhileDown();
    this.readCount++;
    await this.ensureSchema();
    return fn(this.reader);
  }

  write<T>(fn: (tx: Tx) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    return this.queue.enqueue((committed) => this.runWrite(fn, options.bookkeeping === true, committed), options.quiet === true);
  }

  get writing(): boolean {
    return this.queue.busy;
  }

  drain(): Promise<void> {
    return this.queue.drain();
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      await this.drain();
      await this.listener.stop();
      this.stopPolling();
      this.hints.close();
      await this.pool.end();
    })());
  }

  connection(): ConnectionState {
    return this.state;
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onRemoteChange(listener: (hint: ChangeHint) => void): () => void {
    this.hintListeners.add(listener);
    return () => this.hintListeners.delete(listener);
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  private async runWrite<T>(fn: (tx: Tx) => Promise<T>, onSession: boolean, committed: () => void): Promise<T> {
    if (this.closing) throw new Error('The store is closed.');
    await this.refuseWhileDown();
    const schema = await this.ensureSchema();
    if (schema.newer) throw new SchemaTooNewError(this.place, schema.version, PG_SCHEMA_VERSION);
    const maxAttempts = this.options.maxWriteAttempts ?? 10;
    // A count alone is unfair under sustained load: another app with writes queued starts its
    // next one before this one's retry and can win ten times in a row. So a write gives up only
    // when it made its attempts and its time is up too.
    const giveUpAt = Date.now() + (this.options.writeConflictBudgetMs ?? 5_000);
    // A pooled connection may have died unnoticed (server restart): BEGIN fails on it before
    // anything is written, so another connection is tried, up to once per pooled connection.
    let staleLeft = this.pool.size + 1;
    let uniqueRetried = false;
    for (let attempt = 1; ; ) {
      const outcome = await this.attemptWrite(fn, onSession);
      if (outcome.ok) {
        committed();
        outcome.effects.run((event) => this.options.bus.publish(placed(event, this.place)));
        return outcome.value;
      }
      if (outcome.retry === 'stale' && --staleLeft > 0) continue;
      if (outcome.retry === 'stale') throw outcome.error;
      // A unique violation can be another machine's concurrent insert that SSI did not report
      // as a conflict (this write never read that key): run once more on a fresh snapshot,
      // where the domain sees the other row and refuses properly. A real duplicate fails again.
      if (outcome.retry === 'unique' && uniqueRetried) throw outcome.error;
      if (outcome.retry === 'unique') {
        uniqueRetried = true;
        continue;
      }
      if (attempt >= maxAttempts && Date.now() >= giveUpAt) throw new WriteConflictError(this.place, attempt);
      attempt++;
      // Jittered backoff so the machines that collided do not collide again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
    }
  }

  /**
   * One attempt of a write. Bookkeeping runs on the listener's connection while it is up (the
   * write queue runs one write at a time, and the listener sends nothing of its own once
   * listening): a whole transaction on one connection, which a transaction-mode pooler also
   * keeps on one server connection, and PostgreSQL holds notifications until it ends.
   */
  private async attemptWrite<T>(
    fn: (tx: Tx) => Promise<T>,
    onSession: boolean,
  ): Promise<{ ok: true; value: T; effects: CommitEffects } | { ok: false; retry: 'stale' | 'conflict' | 'unique'; error: unknown }> {
    const session = onSession ? this.listener.session() : null;
    const client = session ?? (await this.pool.checkout());
    let phase: 'begin' | 'body' | 'commit' = 'begin';
    let tx: PgTx | null = null;
    let broken = false;
    try {
      const now = await this.begin(client);
      phase = 'body';
      const effects = new CommitEffects();
      tx = new PgTx(client, now, effects, this.uncountable);
      const value = await fn(tx);
      if (tx.poisoned !== undefined) {
        throw new Error('A statement failed inside this write and PostgreSQL aborted the transaction. Run statements whose failure is handled inside tx.savepoint().', { cause: tx.poisoned });
      }
      // With another call of this app on its way to the same room, the other apps' waiters gather the rest of the burst.
      const incoming = this.options.bus.incoming;
      const hints = hintsOf(this.appId, effects.emitted, (roomId) => incoming.pendingIn(this.place, roomId) > 1);
      if (hints.length > 0) await client.query(`SELECT pg_notify($1, h) FROM unnest($2::text[]) AS h`, [CHANGE_CHANNEL, hints]);
      phase = 'commit';
      tx.end();
      if (hops) for (const e of effects.emitted) if (e.type === 'message.created') hops.mark('app.commit_sent', `${e.roomId}:${e.number}`);
      await client.query('COMMIT');
      this.listener.retrySoon();
      return { ok: true, value, effects };
    } catch (thrown) {
      tx?.end();
      const cause = tx?.poisoned ?? thrown;
      if (isConnectionError(cause) || isConnectionError(thrown)) {
        broken = true;
        const reason = connectionReason(cause);
        this.noteLost();
        if (phase === 'commit') throw new TeamCommitUnknownError(this.place, reason);
        if (phase === 'begin') return { ok: false, retry: 'stale', error: new TeamOfflineError(this.place, reason) };
        throw new TeamOfflineError(this.place, reason);
      }
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      if (isSerializationFailure(cause) || isSerializationFailure(thrown)) return { ok: false, retry: 'conflict', error: thrown };
      if (isUniqueViolation(cause)) return { ok: false, retry: 'unique', error: thrown };
      throw thrown;
    } finally {
      if (session && broken) this.listener.drop(session, new Error('A write left the connection unusable.'));
      else if (!session) this.pool.checkin(client as pg.PoolClient, broken);
    }
  }

  /** BEGIN SERIALIZABLE and the server's time, in one round trip. */
  private async begin(client: pg.ClientBase): Promise<string> {
    if (this.options.clock) {
      await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      return this.options.clock().toISOString();
    }
    const results = (await client.query(`BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT ${SERVER_NOW} AS now`)) as unknown as pg.QueryResult[];
    const now = results[1].rows[0].now as string;
    this.serverOffsetMs = Date.parse(now) - Date.now();
    return now;
  }

  /** Migrates on first use (on `fresh`, the listener's new connection, when given); cached until the next reconnect. */
  private ensureSchema(fresh?: pg.ClientBase): Promise<SchemaCheck> {
    return (this.schema ??= (async () => {
      const client = fresh ?? (await this.pool.checkout());
      let broken = false;
      try {
        return await migrateTeamDatabase(client);
      } catch (error) {
        broken = isConnectionError(error);
        if (broken) throw this.offline(error);
        throw error;
      } finally {
        if (!fresh) this.pool.checkin(client as pg.PoolClient, broken);
      }
    })().catch((error) => {
      this.schema = null; // try again on the next use
      throw error;
    }));
  }

  /**
   * Behind a pooler with the listener direct, the listener's lost connection is the database's
   * state: a pooler would hold a query until its own timeout (PgBouncer's query_wait_timeout,
   * 120 s). So a read or write waits for the listener to reconnect (a restart takes a moment),
   * and fails with nothing written when it has not within BACK_WITHIN_MS.
   */
  private async refuseWhileDown(): Promise<void> {
    if (this.state.status !== 'offline' || !this.pool.directListen) return;
    this.listener.retrySoon();
    const back = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), BACK_WITHIN_MS);
      const off = this.onConnectionChange((state) => state.status === 'online' && done(true));
      const done = (online: boolean) => {
        clearTimeout(timer);
        off();
        resolve(online);
      };
    });
    if (!back && this.state.status === 'offline') throw new TeamOfflineError(this.place, this.state.reason);
  }

  private offline(error: unknown): TeamOfflineError {
    return new TeamOfflineError(this.place, connectionReason(error));
  }

  /** A query found the connection gone: the listener (which tells the state) reconnects. */
  private noteLost(): void {
    this.listener.retrySoon();
  }

  private receive(payload: string): void {
    this.hints.addPayload(payload, (text) => {
      const hint = parseHint(this.appId, this.place, text);
      if (hops && hint?.type === 'message.created') hops.mark('app.hint_in', `${hint.roomId}:${hint.number}`);
      return hint;
    });
  }

  /** Connections held to the team now: the LISTEN one (when connected) and the query pool's. */
  connectionCounts(): { listener: number; pool: number; waiting: number; directListen: boolean } {
    return { listener: this.state.status === 'online' ? 1 : 0, pool: this.pool.held, waiting: this.pool.waiting, directListen: this.pool.directListen };
  }

  /** How other apps' changes reach this one: their hints (LISTEN), or a re-check every pollMs. */
  wakeUps(): { mode: 'listen' | 'poll'; pollMs: number } {
    return { mode: this.poll ? 'poll' : 'listen', pollMs: this.pollMs };
  }

  /** A fresh LISTEN connection: do notifications arrive on it? If not, poll (bounded) until a connection where they do. */
  private async checkListening(client: pg.Client): Promise<void> {
    if (await deliversNotifications(client, (text, values) => this.pool.query(text, values))) return this.stopPolling();
    if (this.poll) return;
    console.warn(
      `team "${this.place}": its URL's endpoint does not deliver LISTEN notifications (a transaction-mode pooler?), so other machines' ` +
        `changes are re-checked every ${this.pollMs / 1000} s instead of at once. Add the direct endpoint: letagents-desktop team add … --listen-url URL.`,
    );
    this.poll = setInterval(() => void this.pollChanges(), this.pollMs);
    this.poll.unref();
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    this.changes.reset();
  }

  /** One poll of what changed; a failure is the team's state to tell (the listener reconnects), not the poll's. */
  private async pollChanges(): Promise<void> {
    if (this.closing || this.state.status !== 'online') return;
    try {
      await this.changes.poll();
    } catch (error) {
      if (isConnectionError(error) || error instanceof TeamOfflineError) this.noteLost();
      else console.error(`team "${this.place}": polling for changes failed:`, error);
    }
  }

  /** What the poll fallback has cost so far (all zero while LISTEN delivers). */
  pollCounts(): PollCounts {
    return { ...this.changes.counts };
  }

  /** What the team's hints have cost so far, and how many are held now (bounded). */
  hintCounts(): HintCounts & { held: number } {
    return { ...this.hints.counts, held: this.hints.size };
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    callEach(this.stateListeners, state);
  }
}

/** Calls every listener; one that throws must not stop the others or the connection handling. */
function callEach<A>(listeners: ReadonlySet<(arg: A) => void>, arg: A): void {
  for (const fn of listeners) {
    try {
      fn(arg);
    } catch (error) {
      console.error('team storage listener failed:', error);
    }
  }
}
