// createApp: the whole app core as one object — store and events, GitHub sign-in over
// the OS keychain, the MCP hub for agent connections, the connect-agents writers, and the
// teams (rooms shared through PostgreSQL) with the places rooms live in.
// Both hosts build it: the Electron main process and `letagents-desktop serve`.
import { homedir } from 'node:os';
import { ManagedAgents } from './agents/managedAgents';
import { systemClock, type Clock } from './agents/clock';
import { Automations } from './automations/automations';
import { personLabelIn } from './auth/personLabel';
import { DeliveryAlerts } from './delivery/alerts';
import { createAuthService, type AuthService } from './auth/authService';
import { createGitHubData } from './auth/githubData';
import { uiEventsSettled } from './api/events';
import { createCore, type Core } from './core';
import { createMcpConnectionHandler, type McpHub } from './mcp';
import { createKeychainSecretStore } from './secrets/keychainSecretStore';
import type { SecretStore } from './secrets/secretStore';
import { createSetupService, type SetupService } from './setup/setupService';
import { createTeams, type Teams } from './teams';
import { createPlaces } from './teams/places';
import type { Places } from './store/places';
import { resolveDevHelperCommand, type HelperCommand } from './setup/helperCommand';
import { defaultDataDir } from './paths';
import { APP_VERSION } from './version';
import { NotifySettings } from './notify/notifySettings';

export interface AppOptions {
  readonly dataDir: string;
  /** Default: the OS keychain. Tests of other parts pass createMemorySecretStore(). */
  readonly secrets?: SecretStore;
  readonly env?: NodeJS.ProcessEnv;
  readonly fetch?: typeof fetch;
  /** The command agent configs run; default: this development build's helper. */
  readonly helperCommand?: HelperCommand;
  /** Home folder whose agent configs Connect edits; default: the user's. */
  readonly home?: string;
  /** Managed agents: turns running at once (default 2), a turn's time limit (default 10 min), the waits before a rate-limited turn is tried again, how long a CLI may only reconnect. */
  readonly managedTurns?: { readonly maxConcurrent?: number; readonly timeLimitMs?: number; readonly rateLimitBackoffMs?: readonly number[]; readonly reconnectLimitMs?: number };
  /** This machine's name as a team's other machines see it; default: the host name (tests give two apps on one computer two names). */
  readonly machineName?: string;
  /** Internal: how long one @all turn lasts at most (90 s; tests shorten it). */
  readonly turnWaitMs?: number;
  /** What time it is for schedules, usage-limit resets and backoffs; tests move it by hand. */
  readonly clock?: Clock;
}

export interface App {
  readonly core: Core;
  readonly auth: AuthService;
  readonly githubData: ReturnType<typeof createGitHubData>;
  readonly hub: McpHub;
  readonly setup: SetupService;
  readonly agents: ManagedAgents;
  /** Agents started on a schedule or an event (issue 36). */
  readonly automations: Automations;
  /** "Needs you" items about delivery: unanswered messages, untouched tasks, loops, budgets (issue 14). */
  readonly deliveryAlerts: DeliveryAlerts;
  readonly teams: Teams;
  /** Where rooms live: this computer and the teams. */
  readonly places: Places;
  /** Where notifications go and which (issue 37); the host sends them. */
  readonly notifications: NotifySettings;
  readonly version: string;
  close(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const env = options.env ?? process.env;
  const core = createCore({ dataDir: options.dataDir });
  const secrets = options.secrets ?? createKeychainSecretStore();
  const auth = createAuthService({ store: core.store, secrets, version: APP_VERSION, env, fetch: options.fetch });
  const clock = options.clock ?? systemClock;
  // Pull-request states are cached by the app's clock: an automation looking again after its few minutes sees a fresh one.
  const githubData = createGitHubData({ auth, version: APP_VERSION, env, fetch: options.fetch, now: () => clock.now() });
  const teams = createTeams({ store: core.store, secrets, env, bus: core.bus, dataDir: options.dataDir });
  const places = createPlaces(core.store, teams.registry, teams.connections);
  const hub = createMcpConnectionHandler(core, { version: APP_VERSION, auth, githubData, places, machineName: options.machineName, turnWaitMs: options.turnWaitMs });
  const customDataDir = options.dataDir !== defaultDataDir(env) ? options.dataDir : undefined;
  const home = options.home ?? homedir();
  const helperCommand = options.helperCommand ?? resolveDevHelperCommand({ dataDir: customDataDir, env });
  const setup = createSetupService({ home, env, helperCommand });
  const agents = new ManagedAgents({
    store: core.store,
    bus: core.bus,
    services: hub.services,
    endSessionByPerson: (place, sessionId, mode, person) => hub.endSessionByPerson(place, sessionId, mode, person),
    dataDir: options.dataDir,
    helper: helperCommand,
    env,
    home,
    maxConcurrentTurns: options.managedTurns?.maxConcurrent,
    turnTimeLimitMs: options.managedTurns?.timeLimitMs,
    reconnectLimitMs: options.managedTurns?.reconnectLimitMs,
    rateLimitBackoffMs: options.managedTurns?.rateLimitBackoffMs,
    clock,
  });
  const automations = new Automations({
    store: core.store,
    places,
    bus: core.bus,
    agents,
    clock,
    github: githubData,
    githubSignedIn: async () => (await auth.githubToken()) !== null,
    person: async (place) => ({ kind: 'person', label: await personLabelIn(auth, place) }),
  });
  const deliveryAlerts = new DeliveryAlerts(places, core.bus, hub.services);
  let closing: Promise<void> | undefined;
  const app: App = {
    core,
    auth,
    githubData,
    hub,
    setup,
    agents,
    automations,
    deliveryAlerts,
    teams,
    places,
    notifications: new NotifySettings(core.store, secrets),
    version: APP_VERSION,
    close: () => (closing ??= (async () => {
      auth.cancel();
      // Running turns end first: their last records need the store.
      await automations.close();
      await agents.close();
      await deliveryAlerts.close();
      await hub.close();
      await teams.close();
      // UI events of the last writes are read from the store: let them go out first.
      await uiEventsSettled(app);
      await core.close();
    })()),
  };
  return app;
}
