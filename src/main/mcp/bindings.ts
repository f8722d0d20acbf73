// Worker bindings (worker-handles.md §1, §6, §8): memory-only and app-wide,
// session_id -> {connection, token}. A connection holds a session when the binding
// names it and its own copy of the token is equal. Swapping happens synchronously,
// before any database write, so a write the old connection queued is refused by the
// fence whichever reaches the database first.
import { randomBytes } from 'node:crypto';
import { errors, type DomainError } from '../domain/errors';
import type { ConnectionState } from './connectionState';

interface Binding {
  readonly connectionId: string;
  readonly token: string;
  readonly transport: 'socket' | 'http';
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

  /** Removes every binding of a closed connection; returns the sessions it held. */
  connectionClosed(connection: ConnectionState): string[] {
    this.openConnections.delete(connection.id);
    this.httpActivity.delete(connection.id);
    const released: string[] = [];
    for (const [sessionId, binding] of this.bindings) {
      if (binding.connectionId !== connection.id) continue;
      this.bindings.delete(sessionId);
      this.closedAt.set(sessionId, this.clock());
      this.releasedByClose.set(sessionId, binding);
      this.failWaiters(sessionId, () => true);
      released.push(sessionId);
    }
    return released;
  }

  touchHttp(connectionId: string): void {
    this.httpActivity.set(connectionId, this.clock());
  }

  binding(sessionId: string): Binding | undefined {
    return this.bindings.get(sessionId);
  }

  holds(connection: ConnectionState, sessionId: string): boolean {
    const binding = this.bindings.get(sessionId);
    return !!binding && binding.connectionId === connection.id && connection.tokens.get(sessionId) === binding.token;
  }

  /** Online: bound to an open connection (HTTP also needs recent activity), or within the close grace. */
  isOnline(sessionId: string): boolean {
    const binding = this.bindings.get(sessionId);
    const now = this.clock();
    if (binding && this.openConnections.has(binding.connectionId)) {
      if (binding.transport === 'socket') return true;
      const last = this.httpActivity.get(binding.connectionId);
      return last !== undefined && now - last <= FRESHNESS_WINDOW_MS;
    }
    const closed = this.closedAt.get(sessionId);
    return closed !== undefined && now - closed < RECONNECT_GRACE_MS;
  }

  /**
   * The swap of §6 step 6: fails with W11 when the binding is no longer `predecessor`,
   * else gives this connection a fresh token and fails the other connections' waits.
   */
  swap(connection: ConnectionState, sessionId: string, predecessor: Binding | undefined): void {
    const current = this.bindings.get(sessionId);
    // The predecessor's connection closing meanwhile is no supersession: a retry after a
    // lost response (§11 case 12) races exactly that close. Disconnects and people are.
    const closedMeanwhile = current === undefined && predecessor !== undefined && this.releasedByClose.get(sessionId) === predecessor;
    if (current !== predecessor && !closedMeanwhile) throw errors.W11();
    this.releasedByClose.delete(sessionId);
    this.endedByPerson.delete(sessionId);
    const token = randomBytes(32).toString('base64url');
    this.bindings.set(sessionId, { connectionId: connection.id, token, transport: connection.info.transport });
    connection.tokens.set(sessionId, token);
    this.closedAt.delete(sessionId);
    this.failWaiters(sessionId, (w) => w.connectionId !== connection.id);
  }

  /** Binds a legacy or implicit session to the connection that created it. */
  bindOwned(connection: ConnectionState, sessionId: string): void {
    this.swap(connection, sessionId, this.bindings.get(sessionId));
  }

  /**
   * Ends this connection's hold, e.g. after disconnect_agent_session or a failed persist.
   * `forget` also drops the connection's token (it "released" the session); a person
   * ending the session keeps the token so the next call can say W15.
   */
  unbind(sessionId: string, connection?: ConnectionState, forget = true): void {
    const binding = this.bindings.get(sessionId);
    if (binding && (!connection || binding.connectionId === connection.id)) this.bindings.delete(sessionId);
    this.releasedByClose.delete(sessionId);
    if (connection && forget) connection.tokens.delete(sessionId);
    this.failWaiters(sessionId, (w) => !connection || w.connectionId === connection.id || !binding);
  }

  /** Ends whatever binding a session has (a person disconnected or removed the agent). */
  unbindAll(sessionId: string): void {
    const binding = this.bindings.get(sessionId);
    if (binding) this.endedByPerson.set(sessionId, binding);
    this.bindings.delete(sessionId);
    this.releasedByClose.delete(sessionId);
    this.failWaiters(sessionId, () => true);
  }

  /** §7 step 4: this connection held the session until a person ended it. */
  heldWhenEndedByPerson(connection: ConnectionState, sessionId: string): boolean {
    const binding = this.endedByPerson.get(sessionId);
    return !!binding && binding.connectionId === connection.id && connection.tokens.get(sessionId) === binding.token;
  }

  /** §6 steps 2–3: one in-flight registration per session; the same connection shares it. */
  async registerOnce<T>(connection: ConnectionState, sessionId: string, run: () => Promise<T>): Promise<T> {
    const inFlight = this.registering.get(sessionId);
    if (inFlight) {
      if (inFlight.connectionId === connection.id) return inFlight.result as Promise<T>;
      throw errors.W10();
    }
    const result = run();
    this.registering.set(sessionId, { connectionId: connection.id, result });
    try {
      return await result;
    } finally {
      this.registering.delete(sessionId);
    }
  }

  /** Registers a wait; the returned function removes it. A swap or end calls `fail` with W14. */
  addWaiter(sessionId: string, connectionId: string, fail: (error: DomainError) => void): () => void {
    let set = this.waiters.get(sessionId);
    if (!set) this.waiters.set(sessionId, (set = new Set()));
    const waiter: Waiter = { connectionId, fail };
    set.add(waiter);
    return () => {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(sessionId);
    };
  }

  private failWaiters(sessionId: string, which: (w: Waiter) => boolean): void {
    const set = this.waiters.get(sessionId);
    if (!set) return;
    for (const waiter of [...set]) {
      if (!which(waiter)) continue;
      set.delete(waiter);
      waiter.fail(errors.W14());
    }
  }
}
