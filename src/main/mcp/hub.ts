// The MCP hub: one per running core. It builds one McpServer per agent connection
// (the interactive_desktop tool surface, resources, prompts, completions and logging),
// keeps the worker bindings, ends legacy and implicit sessions when their connection
// closes, and lets people end sessions. Across machines (team rooms) it heartbeats this
// app in every team database it uses, marks the sessions a closed connection let go, and
// drops a binding as soon as another app of the team took the session or a person there
// ended it (their NOTIFY, or a look at the epochs after a lost connection came back).
import { hostname } from 'node:os';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Core } from '../core';
import type { Actor } from '../domain/actor';
import { Approvals } from '../approvals/approvals';
import { createDeliveryServices, type AppHostRow, type DeliveryServices } from '../delivery';
import { heartbeat, releaseSession, type PresenceRow } from '../domain/sessions/presence';
import { bindingEpoch, endSession, getSession, removeFromRoom } from '../domain/sessions/sessions';
import { leaveTurns, openTurnsOf } from '../domain/activation/turnsLeft';
import type { RoomEvent } from '../events/types';
import { LOCAL_PLACE, localOnly, nowIn, type Places } from '../store/places';
import { RECONNECT_GRACE_MS, WorkerBindings } from './bindings';
import type { ConnectionInfo, McpConnectionHandler } from './connection';
import { ConnectionState } from './connectionState';
import { LastSeenTracker } from './lastSeen';
import { placeKey, splitPlaceKey } from '../domain/placeKeys';
import { RoomSignals } from './roomSignals';
import { RoomReads } from './roomReads';
import { WakeLog } from './wakeLog';
import type { McpServices, OwnerIdentity, ToolEnv } from './services';
import { ToolSurface } from './toolSurface';
import { allTools, TOOL_PROFILE_TOOLS } from './tools';
import { registerResources, ResourceNotifier } from './resources';
import { registerPrompts } from './prompts';
import { registerCompletions } from './completions';
import { registerLogging } from './logging';
import { PERMISSION_CAPABILITY, registerChannelPermissions } from './channelPermissions';
import { SERVER_INSTRUCTIONS } from './instructions';
import { autoJoin } from './autoJoin';
import { hostIdOf } from './hostId';
import { CHANNEL_CAPABILITY, channelSink, takesChannelPushes } from './channel';
import { SessionPush } from './sessionPush';
import { CODEX_CLIENT, codexQueueSink } from './codexQueue';

/** A session held by another app of a team shows offline once that app has been silent this long (team-rooms.md §4). */
export const HOST_SILENCE_MS = 30_000;
/** How often this app heartbeats in each team database it uses. */
export const HEARTBEAT_EVERY_MS = 10_000;

export interface McpHubOptions {
  readonly core: Core;
  /** Every place rooms can be in; a core without teams has only this computer's. */
  readonly places?: Places;
  readonly version: string;
  readonly owner: () => Promise<OwnerIdentity>;
  readonly authSummary: McpServices['authSummary'];
  readonly auth: McpServices['auth'];
  readonly githubData: McpServices['githubData'];
  readonly waitProgressMs: number;
  /** How long one @all turn lasts at most (issue 34). */
  readonly turnWaitMs: number;
  /** This machine's name as the team's other machines see it (sessions it holds, managed agents it runs); default: the host name. */
  readonly machineName?: string;
}

interface OpenConnection {
  readonly state: ConnectionState;
  readonly server: McpServer;
}

export class McpHub implements McpConnectionHandler {
  readonly bindings = new WorkerBindings();
  readonly wakes = new WakeLog();
  readonly services: McpServices;
  readonly delivery: DeliveryServices;
  readonly approvals: Approvals;
  /** Wakes pushed into open sessions not inside a wait (issue 26). */
  readonly push: SessionPush;
  private readonly connections = new Map<string, OpenConnection>();
  /** Auto-joins and bookkeeping writes still running; close() waits for them before the stores close. */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly signals: RoomSignals;
  private readonly roomReads: RoomReads;
  private readonly lastSeen: LastSeenTracker;
  private readonly notifier: ResourceNotifier;
  private readonly places: Places;
  private readonly stops: Array<() => void>;
  private readonly heartbeatTimer: NodeJS.Timeout;
  /** This app's host id once read: sessions a team database says this app holds, but whose binding it lost (a restart), are offline. */
  private ownHostId: string | null = null;
  /** The tool definitions and their listings, built once for every connection. */
  private readonly tools = new ToolSurface(allTools, TOOL_PROFILE_TOOLS);

  constructor(private readonly options: McpHubOptions) {
    const { store, bus } = options.core;
    this.places = options.places ?? localOnly(store);
    // Before the room signals: the loop guard sees each commit before any waiter routes it.
    // Reachability is keyed by place and session (placeKey), as the bindings are.
    this.delivery = createDeliveryServices(
      this.places,
      bus,
      (key) => this.bindings.isOnline(key),
      (place, session) => !this.bindings.knows(placeKey(place, session.session_id)) && this.isOnline(place, session),
      (place, host) => this.appAlive(place, host),
    );
    this.signals = new RoomSignals(bus);
    this.roomReads = new RoomReads(bus);
    this.approvals = new Approvals(store);
    this.lastSeen = new LastSeenTracker(this.places);
    const hostId = hostIdOf(store);
    const host = async () => {
      const id = await hostId();
      this.ownHostId = id;
      return { id, label: options.machineName ?? hostname() };
    };
    this.services = {
      store,
      places: this.places,
      bus,
      bindings: this.bindings,
      signals: this.signals,
      roomReads: this.roomReads,
      wakes: this.wakes,
      hostId,
      host,
      isOnline: (place, session) => this.isOnline(place, session),
      version: options.version,
      owner: options.owner,
      authSummary: options.authSummary,
      auth: options.auth,
      githubData: options.githubData,
      touchSession: (place, id) => {
        this.lastSeen.touch(place, id);
        this.delivery.reachability.called(placeKey(place, id));
      },
      waitProgressMs: options.waitProgressMs,
      turnWaitMs: options.turnWaitMs,
      delivery: this.delivery,
      approvals: this.approvals,
    };
    this.push = new SessionPush(this.services);
    this.notifier = new ResourceNotifier(bus, () => [...this.connections.values()]);
    this.stops = [
      bus.on('worker.changed', (event) => {
        if (event.remote && event.epoch !== undefined) this.track(this.heardOfBind(event, event.epoch));
      }),
      bus.on('place.reconnected', (event) => this.track(this.recheckBindings(event.place))),
      // A team's database is back: an approval wait that ended while it was down is cleared there now.
      bus.on('place.online', () => this.approvals.showOwedWaits()),
      bus.on('place.reconnected', () => this.approvals.showOwedWaits()),
      // An agent offline after the reconnect grace is away: an @all turn it held moves on now.
      this.delivery.reachability.onChange((key, state) => {
        if (state === 'offline') this.track(this.turnsLeft(key).catch((error: unknown) => console.warn('moving the turns of an agent gone offline failed:', error)));
      }),
    ];
    this.heartbeatTimer = setInterval(() => this.track(this.heartbeat()), HEARTBEAT_EVERY_MS);
    this.heartbeatTimer.unref();
  }

  open(info: ConnectionInfo): McpServer {
    const state = new ConnectionState(info);
    this.bindings.connectionOpened(info.id);
    // McpServer is only the container here: every handler is installed on its low-level
    // server (toolSurface, resources, prompts, completions, logging), none through register*.
    const server = new McpServer(
      { name: 'letagents-desktop', version: this.options.version },
      {
        capabilities: {
          tools: {}, resources: { subscribe: true, listChanged: true }, prompts: {}, completions: {}, logging: {},
          // Claude Code's channel (pushes, sessionPush.ts) and its permission relay (channelPermissions.ts).
          experimental: { ...CHANNEL_CAPABILITY, [PERMISSION_CAPABILITY]: {} },
        },
        instructions: SERVER_INSTRUCTIONS,
      },
    );
    let markReady!: () => void;
    const env: ToolEnv = { services: this.services, conn: state, ready: new Promise<void>((r) => (markReady = r)) };
    server.server.oninitialized = () => {
      state.clientName = server.server.getClientVersion()?.name ?? '';
      if (takesChannelPushes(state.clientName, info)) this.push.attach(state, channelSink(server));
      else if (state.clientName === CODEX_CLIENT) this.push.attach(state, codexQueueSink(state));
      this.track(
        autoJoin(env)
          .catch((error) => console.warn('auto-join failed:', error))
          .finally(markReady),
      );
    };
    // A client that never sends notifications/initialized still gets answers.
    setTimeout(markReady, 2_000).unref();
    this.tools.install(server, env, info.toolProfile ?? 'full');
    registerResources(server, env);
    registerPrompts(server, env);
    registerCompletions(server, env);
    registerLogging(server, state);
    registerChannelPermissions(server, env);
    this.connections.set(info.id, { state, server });
    return server;
  }

  /** Agents connected now (stdio helpers and /mcp sessions), for `doctor` and the idle exit. */
  get connectionCount(): number {
    return this.connections.size;
  }

  closed(connectionId: string): void {
    const open = this.connections.get(connectionId);
    if (!open) return;
    this.connections.delete(connectionId);
    this.push.detach(connectionId);
    open.state.markClosed();
    // What its session asked the person about closes with it.
    this.track(this.approvals.closeOwner(connectionId, 'The session disconnected.'));
    // Durable workers' sessions are let go, not ended: a team's other apps show them offline after the grace.
    for (const { key, epoch } of this.bindings.connectionClosed(open.state)) {
      this.delivery.reachability.connectionChanged(key, RECONNECT_GRACE_MS);
      const { place, id } = splitPlaceKey(key);
      if (place !== LOCAL_PLACE && epoch !== undefined) this.writeIn(place, 'noting a closed connection', (tx) => releaseSession(tx, id, epoch));
    }
    // Legacy and implicit sessions end with their connection; durable workers do not.
    const owned = [
      ...open.state.legacySessions,
      ...[...open.state.implicitSessions].map(([roomKey, id]) => placeKey(splitPlaceKey(roomKey).place, id)),
    ];
    for (const key of owned) {
      const { place, id } = splitPlaceKey(key);
      this.writeIn(place, 'ending sessions of a closed connection', (tx) => endSession(tx, id, 'connection_closed'));
    }
  }

  replied(connectionId: string, requestId: string | number, error: Error | null): void {
    this.connections.get(connectionId)?.state.replied(requestId, error);
  }

  touched(connectionId: string): void {
    this.bindings.touchHttp(connectionId);
  }

  /**
   * Held by this app: its bindings say (worker-handles.md §9). In a team room held by another
   * app: that app heartbeat within HOST_SILENCE_MS and has not let go (or did so within the grace).
   */
  isOnline(place: string, session: PresenceRow): boolean {
    const key = placeKey(place, session.session_id);
    if (this.bindings.knows(key)) return this.bindings.isOnline(key);
    if (place === LOCAL_PLACE || !session.host_id || session.host_id === this.ownHostId || !session.host_heard_at) return false;
    const now = Date.parse(nowIn(this.places, place));
    if (!(now - Date.parse(session.host_heard_at) < HOST_SILENCE_MS)) return false;
    return session.released_at === null || now - Date.parse(session.released_at) < RECONNECT_GRACE_MS;
  }

  /** Whether the app a row names runs now: this app (or none named), or another app of the team that heartbeat within HOST_SILENCE_MS. */
  appAlive(place: string, host: AppHostRow): boolean {
    if (place === LOCAL_PLACE || host.host_id === null || host.host_id === this.ownHostId) return true;
    if (!host.host_heard_at) return false;
    return Date.parse(nowIn(this.places, place)) - Date.parse(host.host_heard_at) < HOST_SILENCE_MS;
  }

  /** A person disconnects an agent (ends its session, keeps leases) or removes it from the room. */
  async endSessionByPerson(place: string, sessionId: string, mode: 'disconnect' | 'remove', person: Actor): Promise<void> {
    const storage = await this.places.get(place);
    const session = await storage.read((q) => getSession(q, sessionId));
    if (!session) return;
    // Unbind first: a wait fails at once with W14 and a queued write is fenced out. On other
    // machines the new binding epoch does the same.
    this.bindings.unbindAll(placeKey(place, sessionId));
    this.delivery.reachability.connectionChanged(placeKey(place, sessionId), 0);
    await storage.write(async (tx) => {
      if (mode === 'remove') await removeFromRoom(tx, sessionId, person);
      else await endSession(tx, sessionId, 'person');
    });
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeatTimer);
    this.stops.forEach((stop) => stop());
    await Promise.allSettled([...this.pending]);
    await this.push.close();
    for (const { server } of this.connections.values()) await server.close().catch(() => undefined);
    this.connections.clear();
    this.notifier.close();
    this.signals.close();
    this.roomReads.close();
    await Promise.allSettled([...this.pending]);
    await this.lastSeen.close();
    await this.delivery.close();
    this.approvals.close();
  }

  /** Keeps a background promise until it settles, so close() can wait for it. */
  private track(work: Promise<unknown>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** A bookkeeping write in a place; a place that cannot be written now (offline) only loses this note. */
  private writeIn(place: string, what: string, fn: Parameters<Places['local']['write']>[0]): void {
    this.track(
      this.places
        .get(place)
        .then((storage) => storage.write(fn))
        .catch((error: unknown) => console.warn(`${what} failed:`, error)),
    );
  }

  /** Every team database this app has open: it is alive. */
  private async heartbeat(): Promise<void> {
    // Also the retry of waits whose showing failed while the connection never dropped (a pooler down).
    this.approvals.showOwedWaits();
    const teams = this.places.opened();
    if (teams.length === 0) return;
    const host = await this.services.host();
    await Promise.allSettled(teams.map((storage) => storage.write((tx) => heartbeat(tx, host), { bookkeeping: true, quiet: true })));
  }

  /**
   * Another app of the team says it stored a bind of this session at `epoch` (a takeover), or a
   * person there ended it: a binding of this app from before is over if the database agrees.
   */
  private async heardOfBind(event: Pick<RoomEvent, 'place'> & { sessionId: string }, epoch: number): Promise<void> {
    const key = placeKey(event.place, event.sessionId);
    const held = this.bindings.binding(key)?.epoch;
    // Unknown yet: this app's own bind is being stored, and its fence reads the database anyway.
    if (held === undefined || held >= epoch) return;
    const storage = await this.places.get(event.place);
    const session = await storage.read((q) => getSession(q, event.sessionId));
    if (this.bindings.binding(key)?.epoch !== held) return;
    // A hint is anyone's NOTIFY: only the stored epoch fences (a forged one changes nothing).
    if (!session || session.binding_epoch <= held) return;
    if (session?.ended_by === 'person' && session.ended_at) this.bindings.unbindAll(key);
    else this.bindings.replacedElsewhere(key);
  }

  /**
   * The session `key` went offline: it is recorded away from the open @all rounds it had a turn
   * in, so they move on here and on the team's other machines (their waiters look again).
   */
  private async turnsLeft(key: string): Promise<void> {
    const { place, id } = splitPlaceKey(key);
    const storage = await this.places.get(place);
    // Most sessions that go have no @all turn: a read tells, and only the others write.
    const open = await storage.read(async (q) => {
      const session = await getSession(q, id);
      return session && session.session_kind === 'worker' ? (await openTurnsOf(this.services, q, session.room_id, session.agent_key, new Date())).length > 0 : false;
    });
    if (!open) return;
    await storage.write(async (tx) => {
      const session = await getSession(tx, id);
      if (!session || session.session_kind !== 'worker') return;
      await leaveTurns(this.services, tx, place, session.room_id, session.agent_key, session.session_id);
    });
  }

  /** After a lost connection to a team came back: a takeover hint may have been missed, so the epochs are compared. */
  private async recheckBindings(place: string): Promise<void> {
    const bound = this.bindings.boundKeys(placeKey(place, ''));
    if (bound.length === 0) return;
    const storage = await this.places.get(place);
    for (const { key, epoch } of bound) {
      if (epoch === undefined) continue;
      const stored = await storage.read((q) => bindingEpoch(q, splitPlaceKey(key).id));
      if (stored > epoch) await this.heardOfBind({ place, sessionId: splitPlaceKey(key).id }, stored);
    }
  }
}
