// Worker bindings (worker-handles.md §1, §6, §8): memory-only and app-wide,
// session key (place + session_id) -> {connection, token, epoch}. A connection holds a
// session when the binding names it and its own copy of the token is equal. Swapping
// happens synchronously, before any database write, so a write the old connection queued is
// refused by the fence whichever reaches the database first. Across machines the session's
// binding epoch in its database fences too: a takeover elsewhere bumps it, and this app
// drops its binding when it hears of it (replacedElsewhere).
import { randomBytes } from 'node:crypto';
import { errors, type DomainError } from '../domain/errors';
import type { ConnectionState } from './connectionState';

interface Binding {
  readonly connectionId: string;
  readonly token: string;
  readonly transport: 'socket' | 'http';
  /** The session's binding epoch in its database once the bind is stored (fenced writes check it). */
  epoch?: number;
}

interface Waiter {
  readonly connectionId: string;
  fail(error: DomainError): void;
}

/** How long a session still shows online after its connection closed. */
export const RECONNECT_GRACE_MS = 10_000;
/** An HTTP connection counts as online with a request within this window. */
export const FRESHNESS_WINDOW_MS = 90_000;

export class WorkerBindings {
  private readonly bindings = new Map<string, Binding>();
  private readonly registering = new Map<string, { connectionId: string; result: Promise<unknown> }>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly closedAt = new Map<string, number>();
  /** The binding a connection close removed, per session, until the next swap. */
  private readonly releasedByClose = new Map<string, Binding>();
  /** The binding a person's end removed, per session, until the next swap (for W15). */
  private readonly endedByPerson = new Map<string, Binding>();
  private readonly httpActivity = new Map<string, number>();
  private readonly openConnections = new Set<string>();

  constructor(private readonly clock: () => number = Date.now) {}

  connectionOpened(connectionId: string): void {
    this.openConnections.add(connectionId);
  }

  /** Removes every binding of a closed connection; returns the session keys it held, with their epochs. */
  connectionClosed(connection: ConnectionState): Array<{ key: string; epoch: number | undefined }> {
    this.openConnections.delete(connection.id);
    this.httpActivity.delete(connection.id);
    const released: Array<{ key: string; epoch: number | undefined }> = [];
    for (const [key, binding] of this.bindings) {
      if (binding.connectionId !== connection.id) continue;
      this.bindings.delete(key);
      this.closedAt.set(key, this.clock());
      this.releasedByClose.set(key, binding);
      this.failWaiters(key, () => true);
      released.push({ key, epoch: binding.epoch });
    }
    return released;
  }

  /** The bind of `key` by the connection holding `token` is stored at `epoch`. */
  setEpoch(key: string, token: string, epoch: number): void {
    const binding = this.bindings.get(key);
    if (binding?.token === token) binding.epoch = epoch;
  }

  /** Every session key bound now whose key starts with `prefix` (a place's), with its epoch. */
  boundKeys(prefix: string): Array<{ key: string; epoch: number | undefined }> {
    return [...this.bindings].filter(([key]) => key.startsWith(prefix)).map(([key, b]) => ({ key, epoch: b.epoch }));
  }

  /**
   * Another app (machine) took the session, or a person there ended it: this app's binding
   * goes, so its connection's next call says W13 (it still has its token) and every wait of
   * it fails now with W14.
   */
  replacedElsewhere(key: string): void {
    if (!this.bindings.delete(key)) return;
    this.releasedByClose.delete(key);
    this.failWaiters(key, () => true);
  }

  touchHttp(connectionId: string): void {
    this.httpActivity.set(connectionId, this.clock());
  }

  binding(key: string): Binding | undefined {
    return this.bindings.get(key);
  }

  holds(connection: ConnectionState, key: string): boolean {
    const binding = this.bindings.get(key);
    return !!binding && binding.connectionId === connection.id && connection.tokens.get(key) === binding.token;
  }

  /** True while this app knows the session's presence: it holds it, or its connection closed within the grace. */
  knows(key: string): boolean {
    if (this.bindings.has(key)) return true;
    const closed = this.closedAt.get(key);
    return closed !== undefined && this.clock() - closed < RECONNECT_GRACE_MS;
  }

  /** Online: bound to an open connection (HTTP also needs recent activity), or within the close grace. */
  isOnline(key: string): boolean {
    const binding = this.bindings.get(key);
    const now = this.clock();
    if (binding && this.openConnections.has(binding.connectionId)) {
      if (binding.transport === 'socket') return true;
      const last = this.httpActivity.get(binding.connectionId);
      return last !== undefined && now - last <= FRESHNESS_WINDOW_MS;
    }
    const closed = this.closedAt.get(key);
    return closed !== undefined && now - closed < RECONNECT_GRACE_MS;
  }

  /**
   * The swap of §6 step 6: fails with W11 when the binding is no longer `predecessor`,
   * else gives this connection a fresh token and fails the other connections' waits.
   */
  swap(connection: ConnectionState, key: string, predecessor: Binding | undefined): void {
    const current = this.bindings.get(key);
    // The predecessor's connection closing meanwhile is no supersession: a retry after a
    // lost response (§11 case 12) races exactly that close. Disconnects and people are.
    const closedMeanwhile = current === undefined && predecessor !== undefined && this.releasedByClose.get(key) === predecessor;
    if (current !== predecessor && !closedMeanwhile) throw errors.W11();
    this.releasedByClose.delete(key);
    this.endedByPerson.delete(key);
    const token = randomBytes(32).toString('base64url');
    this.bindings.set(key, { connectionId: connection.id, token, transport: connection.info.transport });
    connection.tokens.set(key, token);
    this.closedAt.delete(key);
    this.failWaiters(key, (w) => w.connectionId !== connection.id);
  }

  /** Binds a legacy or implicit session to the connection that created it. */
  bindOwned(connection: ConnectionState, key: string): void {
    this.swap(connection, key, this.bindings.get(key));
  }

  /**
   * Ends this connection's hold, e.g. after disconnect_agent_session or a failed persist.
   * `forget` also drops the connection's token (it "released" the session); a person
   * ending the session keeps the token so the next call can say W15.
   */
  unbind(key: string, connection?: ConnectionState, forget = true): void {
    const binding = this.bindings.get(key);
    if (binding && (!connection || binding.connectionId === connection.id)) this.bindings.delete(key);
    this.releasedByClose.delete(key);
    if (connection && forget) connection.tokens.delete(key);
    this.failWaiters(key, (w) => !connection || w.connectionId === connection.id || !binding);
  }

  /** Ends whatever binding a session has (a person disconnected or removed the agent). */
  unbindAll(key: string): void {
    const binding = this.bindings.get(key);
    if (binding) this.endedByPerson.set(key, binding);
    this.bindings.delete(key);
    this.releasedByClose.delete(key);
    this.failWaiters(key, () => true);
  }

  /** §7 step 4: this connection held the session until a person ended it. */
  heldWhenEndedByPerson(connection: ConnectionState, key: string): boolean {
    const binding = this.endedByPerson.get(key);
    return !!binding && binding.connectionId === connection.id && connection.tokens.get(key) === binding.token;
  }

  /** §6 steps 2–3: one in-flight registration per session; the same connection shares it. */
  async registerOnce<T>(connection: ConnectionState, key: string, run: () => Promise<T>): Promise<T> {
    const inFlight = this.registering.get(key);
    if (inFlight) {
      if (inFlight.connectionId === connection.id) return inFlight.result as Promise<T>;
      throw errors.W10();
    }
    const result = run();
    this.registering.set(key, { connectionId: connection.id, result });
    try {
      return await result;
    } finally {
      this.registering.delete(key);
    }
  }

  /** Registers a wait; the returned function removes it. A swap or end calls `fail` with W14. */
  addWaiter(key: string, connectionId: string, fail: (error: DomainError) => void): () => void {
    let set = this.waiters.get(key);
    if (!set) this.waiters.set(key, (set = new Set()));
    const waiter: Waiter = { connectionId, fail };
    set.add(waiter);
    return () => {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(key);
    };
  }

  private failWaiters(key: string, which: (w: Waiter) => boolean): void {
    const set = this.waiters.get(key);
    if (!set) return;
    for (const waiter of [...set]) {
      if (!which(waiter)) continue;
      set.delete(waiter);
      waiter.fail(errors.W14());
    }
  }
}
