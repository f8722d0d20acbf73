// One PostgresStorage per team, opened on first use and kept: its connection state
// (connecting, online, offline with reason and next retry) is reported on every change.
// A team that is removed, or whose URL changed (the CLI in another process), is closed
// when the registry says something changed; everything is closed with the app.
import { createHash } from 'node:crypto';
import type { EventBus } from '../events/bus';
import { isDomainError } from '../domain/errors';
import type { ConnectionState } from '../store/port';
import { PostgresStorage } from '../store/postgres/postgresStorage';
import { teamKey } from './teamNames';
import type { TeamRegistry } from './teamRegistry';

/** A team's connection as people see it. */
export type TeamConnectionState =
  | ConnectionState
  /** Not opened yet: teams connect on first use. */
  | { readonly status: 'idle' }
  /** Cannot even try: the URL cannot be read (keychain) or breaks the TLS rule. */
  | { readonly status: 'unavailable'; readonly reason: string };

export type TeamStateListener = (name: string, state: TeamConnectionState) => void;

interface Entry {
  readonly name: string;
  readonly opening: Promise<PostgresStorage>;
  storage: PostgresStorage | null;
  /** A hash of the URL and the plaintext permission, to notice a changed team. */
  fingerprint: string;
  off: () => void;
}

export interface TeamConnectionsOptions {
  readonly registry: TeamRegistry;
  readonly bus: EventBus;
  readonly connectTimeoutMs?: number;
}

const fingerprintOf = (url: string, allowPlaintext: boolean) => createHash('sha256').update(`${allowPlaintext ? 1 : 0}\n${url}`).digest('hex');

export class TeamConnections {
  private readonly entries = new Map<string, Entry>();
  private readonly states = new Map<string, { name: string; state: TeamConnectionState }>();
  private readonly listeners = new Set<TeamStateListener>();
  private closed = false;

  constructor(private readonly options: TeamConnectionsOptions) {}

  /**
   * The team's storage, opened (and its connection started) on first use. It may be offline:
   * its reads and writes then fail with team_offline until it is back. team_not_found,
   * team_unavailable or keychain_unavailable when it cannot be opened.
   */
  storage(name: string): Promise<PostgresStorage> {
    if (this.closed) return Promise.reject(new Error('The app is closing.'));
    const key = teamKey(name);
    const existing = this.entries.get(key);
    if (existing) return existing.opening;
    // open() starts a microtask later, when `entry` exists and is registered.
    const entry: Entry = { name, opening: Promise.resolve().then(() => this.open(entry)), storage: null, fingerprint: '', off: () => undefined };
    this.entries.set(key, entry);
    // A retry of an unavailable team keeps saying so until it works (no flicker, no event storm).
    if (this.state(name).status === 'idle') this.setState(name, { status: 'connecting' });
    entry.opening.catch((error: unknown) => {
      // Not kept: the next use tries again (the keychain may be unlocked by then).
      if (this.entries.get(key) !== entry) return;
      this.entries.delete(key);
      this.setState(name, { status: 'unavailable', reason: isDomainError(error) || error instanceof Error ? error.message : String(error) });
    });
    return entry.opening;
  }

  /** Starts connecting in the background (the state tells how it goes). */
  connect(name: string): void {
    this.storage(name).catch(() => undefined);
  }

  state(name: string): TeamConnectionState {
    return this.states.get(teamKey(name))?.state ?? { status: 'idle' };
  }

  /** The storages of the teams opened so far that are online now. */
  openedOnline(): PostgresStorage[] {
    return [...this.entries.values()].flatMap((entry) => (entry.storage?.connection().status === 'online' ? [entry.storage] : []));
  }

  /** The state of every team opened so far (the others are idle). */
  snapshot(): Array<{ name: string; state: TeamConnectionState }> {
    return [...this.states.values()];
  }

  /** Takes over a storage opened elsewhere (`teams.add` keeps the one it tested). */
  adopt(name: string, storage: PostgresStorage, url: string, allowPlaintext: boolean): void {
    const key = teamKey(name);
    const old = this.entries.get(key);
    if (old) void this.closeEntry(old);
    const entry: Entry = { name, opening: Promise.resolve(storage), storage, fingerprint: fingerprintOf(url, allowPlaintext), off: () => undefined };
    this.entries.set(key, entry);
    this.watch(entry, storage);
  }

  /** Closes the team's storage (removed team); its state goes back to idle. */
  async close(name: string): Promise<void> {
    const entry = this.entries.get(teamKey(name));
    if (entry) await this.closeEntry(entry);
  }

  /**
   * After a registry change: closes teams that are gone, and reopens those whose URL or
   * plaintext permission changed (another process removed and added them again).
   */
  async reconcile(): Promise<void> {
    for (const entry of [...this.entries.values()]) {
      let fingerprint: string | null = null;
      try {
        const { team, url } = await this.options.registry.connectionOf(entry.name);
        fingerprint = fingerprintOf(url, team.allowPlaintext);
      } catch (error) {
        // Gone: close it. Its URL cannot be read just now (a locked keychain): keep what works.
        if (!isDomainError(error) || error.code !== 'team_not_found') continue;
      }
      if (this.entries.get(teamKey(entry.name)) !== entry || (entry.storage && fingerprint === entry.fingerprint)) continue;
      if (!entry.storage && fingerprint !== null) continue; // still opening with the current URL
      await this.closeEntry(entry);
      if (fingerprint !== null) this.connect(entry.name);
    }
  }

  onChange(listener: TeamStateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.entries.values()].map((entry) => this.closeEntry(entry)));
  }

  private async open(entry: Entry): Promise<PostgresStorage> {
    const { team, url } = await this.options.registry.connectionOf(entry.name);
    const storage = new PostgresStorage({
      place: team.name,
      url,
      allowPlaintext: team.allowPlaintext,
      bus: this.options.bus,
      connectTimeoutMs: this.options.connectTimeoutMs,
    });
    if (this.entries.get(teamKey(entry.name)) !== entry || this.closed) {
      await storage.close();
      throw new Error(`The team "${team.name}" was closed while connecting.`);
    }
    entry.storage = storage;
    entry.fingerprint = fingerprintOf(url, team.allowPlaintext);
    this.watch(entry, storage);
    return storage;
  }

  /**
   * Follows the storage's state, and publishes on the app's bus that it is online for the
   * first time (so what is kept in memory of a place, like delivery's pauses, is read from
   * a team that was offline at the start or added since), what the team's other apps
   * committed (their NOTIFY hints, as remote events of this place) and that a lost
   * connection came back (so waiters re-check what a missed hint would have told them).
   */
  private watch(entry: Entry, storage: PostgresStorage): void {
    const { bus } = this.options;
    let announced = false;
    const follow = (state: TeamConnectionState) => {
      this.setState(entry.name, state);
      if (announced || state.status !== 'online') return;
      announced = true;
      bus.publish({ type: 'place.online', place: storage.place });
    };
    const offs = [
      storage.onConnectionChange(follow),
      storage.onRemoteChange((event) => bus.publish(event)),
      storage.onReconnect(() => bus.publish({ type: 'place.reconnected', place: storage.place })),
    ];
    entry.off = () => offs.forEach((off) => off());
    // An adopted storage (teams.add) is online already.
    follow(storage.connection());
  }

  private async closeEntry(entry: Entry): Promise<void> {
    const key = teamKey(entry.name);
    if (this.entries.get(key) === entry) this.entries.delete(key);
    entry.off();
    const storage = entry.storage ?? (await entry.opening.catch(() => null));
    await storage?.close();
    if (!this.entries.has(key)) this.setState(entry.name, { status: 'idle' });
  }

  private setState(name: string, state: TeamConnectionState): void {
    const key = teamKey(name);
    // The same state again (a retry that failed alike) is no news.
    if (JSON.stringify(this.states.get(key)?.state ?? { status: 'idle' }) === JSON.stringify(state)) return;
    if (state.status === 'idle') this.states.delete(key);
    else this.states.set(key, { name, state });
    for (const listener of [...this.listeners]) {
      try {
        listener(name, state);
      } catch (error) {
        console.error('team connection listener failed:', error);
      }
    }
  }
}
