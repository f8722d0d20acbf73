// The MCP hub: one per running core. It builds one McpServer per agent connection
// (the interactive_desktop tool surface, resources, prompts, completions and logging),
// keeps the worker bindings, ends legacy and implicit sessions when their connection
// closes, and lets people end sessions.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Core } from '../core';
import type { Actor } from '../domain/actor';
import { endSession, getSession, removeFromRoom } from '../domain/sessions/sessions';
import { createDeliveryServices, type DeliveryServices } from '../delivery';
import { RECONNECT_GRACE_MS, WorkerBindings } from './bindings';
import type { ConnectionInfo, McpConnectionHandler } from './connection';
import { ConnectionState } from './connectionState';
import { LastSeenTracker } from './lastSeen';
import { RoomSignals } from './roomSignals';
import { WakeLog } from './wakeLog';
import type { McpServices, OwnerIdentity, ToolEnv } from './services';
import { ToolSurface } from './toolSurface';
import { allTools, TOOL_PROFILE_TOOLS } from './tools';
import { registerResources, ResourceNotifier } from './resources';
import { registerPrompts } from './prompts';
import { registerCompletions } from './completions';
import { registerLogging } from './logging';
import { SERVER_INSTRUCTIONS } from './instructions';
import { autoJoin } from './autoJoin';
import { hostIdOf } from './hostId';

export interface McpHubOptions {
  readonly core: Core;
  readonly version: string;
  readonly owner: () => Promise<OwnerIdentity>;
  readonly authSummary: McpServices['authSummary'];
  readonly auth: McpServices['auth'];
  readonly githubData: McpServices['githubData'];
  readonly waitProgressMs: number;
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
  private readonly connections = new Map<string, OpenConnection>();
  /** Auto-joins still running; close() waits for them before the store closes. */
  private readonly joining = new Set<Promise<void>>();
  private readonly signals: RoomSignals;
  private readonly lastSeen: LastSeenTracker;
  private readonly notifier: ResourceNotifier;
  /** The tool definitions and their listings, built once for every connection. */
  private readonly tools = new ToolSurface(allTools, TOOL_PROFILE_TOOLS);

  constructor(private readonly options: McpHubOptions) {
    const { store, bus } = options.core;
    // Before the room signals: the loop guard sees each commit before any waiter routes it.
    this.delivery = createDeliveryServices(store, bus, (id) => this.bindings.isOnline(id));
    this.signals = new RoomSignals(bus);
    this.lastSeen = new LastSeenTracker(store);
    this.services = {
      store,
      bus,
      bindings: this.bindings,
      signals: this.signals,
      wakes: this.wakes,
      hostId: hostIdOf(store),
      dataDir: options.core.dataDir,
      version: options.version,
      owner: options.owner,
      authSummary: options.authSummary,
      auth: options.auth,
      githubData: options.githubData,
      touchSession: (id) => {
        this.lastSeen.touch(id);
        this.delivery.reachability.called(id);
      },
      waitProgressMs: options.waitProgressMs,
      delivery: this.delivery,
    };
    this.notifier = new ResourceNotifier(bus, () => [...this.connections.values()]);
  }

  open(info: ConnectionInfo): McpServer {
    const state = new ConnectionState(info);
    this.bindings.connectionOpened(info.id);
    // McpServer is only the container here: every handler is installed on its low-level
    // server (toolSurface, resources, prompts, completions, logging), none through register*.
    const server = new McpServer(
      { name: 'letagents-desktop', version: this.options.version },
      {
        capabilities: { tools: {}, resources: { subscribe: true, listChanged: true }, prompts: {}, completions: {}, logging: {} },
        instructions: SERVER_INSTRUCTIONS,
      },
    );
    let markReady!: () => void;
    const env: ToolEnv = { services: this.services, conn: state, ready: new Promise<void>((r) => (markReady = r)) };
    server.server.oninitialized = () => {
      state.clientName = server.server.getClientVersion()?.name ?? '';
      const join = autoJoin(env)
        .catch((error) => console.warn('auto-join failed:', error))
        .finally(() => {
          markReady();
          this.joining.delete(join);
        });
      this.joining.add(join);
    };
    // A client that never sends notifications/initialized still gets answers.
    setTimeout(markReady, 2_000).unref();
    this.tools.install(server, env, info.toolProfile ?? 'full');
    registerResources(server, env);
    registerPrompts(server, env);
    registerCompletions(server, env);
    registerLogging(server, state);
    this.connections.set(info.id, { state, server });
    return server;
  }

  closed(connectionId: string): void {
    const open = this.connections.get(connectionId);
    if (!open) return;
    this.connections.delete(connectionId);
    open.state.closed = true;
    for (const sessionId of this.bindings.connectionClosed(open.state)) this.delivery.reachability.connectionChanged(sessionId, RECONNECT_GRACE_MS);
    // Legacy and implicit sessions end with their connection; durable workers do not.
    const owned = [...open.state.legacySessions, ...open.state.implicitSessions.values()];
    if (owned.length > 0) {
      this.services.store
        .write(async (tx) => {
          for (const id of owned) await endSession(tx, id, 'connection_closed');
        })
        .catch((error) => console.warn('ending sessions of a closed connection failed:', error));
    }
  }

  touched(connectionId: string): void {
    this.bindings.touchHttp(connectionId);
  }

  isOnline(sessionId: string): boolean {
    return this.bindings.isOnline(sessionId);
  }

  /** A person disconnects an agent (ends its session, keeps leases) or removes it from the room. */
  async endSessionByPerson(sessionId: string, mode: 'disconnect' | 'remove', person: Actor): Promise<void> {
    const session = await this.services.store.read((q) => getSession(q, sessionId));
    if (!session) return;
    // Unbind first: a wait fails at once with W14 and a queued write is fenced out.
    this.bindings.unbindAll(sessionId);
    this.delivery.reachability.connectionChanged(sessionId, 0);
    await this.services.store.write(async (tx) => {
      if (mode === 'remove') await removeFromRoom(tx, sessionId, person);
      else await endSession(tx, sessionId, 'person');
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.joining]);
    for (const { server } of this.connections.values()) await server.close().catch(() => undefined);
    this.connections.clear();
    this.notifier.close();
    this.signals.close();
    await this.lastSeen.close();
    await this.delivery.close();
  }
}
