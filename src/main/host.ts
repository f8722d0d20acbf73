// Hosting the app: the core (createApp), the app API behind one dispatcher, the agent
// gateway (socket + HTTP /mcp) and, where a renderer is given, the browser host on the
// same loopback HTTP server. `serve` and the Electron main process both start it.
import { existsSync } from 'node:fs';
import { createApp, type App, type AppOptions } from './app';
import { createApiImplementation, createDispatcher, emitUiSignal, eventsForUi, type ApiCaller, type ApiHost, type Dispatch } from './api';
import { startGateway, type Gateway } from './gateway';
import { limitRepeatedLogs } from './logLimit';
import type { ApiCallHandler } from './gateway/socketConnection';
import { quietPeriodText, watchIdle } from './idleExit';
import { createWebHost, type WebHost } from './web/webHost';
import type { AppRunStatus } from './appRunStatus';
import { PhoneService } from './phone/phoneService';
import { Notifier } from './notify/notifier';
import type { ManagedAgent } from '../shared/model/managedAgents';
import type { NeedsYouItem } from '../shared/model/needsYou';

export type { AppRunStatus } from './appRunStatus';

export interface AppHostOptions extends AppOptions {
  /** HTTP port on 127.0.0.1 (0 picks a free one). */
  readonly port?: number;
  /** With port 0: a port to try first; a free one when it is taken. */
  readonly preferredPort?: number | null;
  /** The built renderer to serve to browsers (out/renderer); omitted or missing: no browser UI. */
  readonly rendererDir?: string;
  /** The built renderer a paired phone is served (default: rendererDir; the desktop app has no browser UI but serves phones). */
  readonly phonePageDir?: string;
  /** The phone pairing codes' clock (tests pass their own). */
  readonly phoneClock?: () => number;
  /** What the host can do for the UI (open links, folders). */
  readonly apiHost?: ApiHost;
  /** How this app runs, for `doctor` (default: serve, started by a person). */
  readonly run?: { readonly kind: 'serve' | 'desktop'; readonly startedBy: 'agent' | 'person' };
  /** Exit after this long with no agent, managed agent or window (an app a helper started). */
  readonly idleExitMs?: number | null;
  /** Desktop windows showing now (the browser host counts its tabs itself). */
  readonly openWindows?: () => number;
  /**
   * Stops the app: `letagents-desktop stop` and the idle exit ask for it with the reason. The
   * owner (serve, the desktop app) ends its process after `close(reason)`.
   */
  readonly onStop?: (reason: string) => void;
}

export interface AppHost {
  readonly app: App;
  readonly gateway: Gateway;
  readonly dispatch: Dispatch;
  readonly subscribe: ReturnType<typeof eventsForUi>;
  /** Phone access (issue 37): the second listener, pairing and paired phones. */
  readonly phone: PhoneService;
  /** Sends notifications to the person's own target (issue 37). */
  readonly notifier: Notifier;
  /** What runs, for `doctor` (also asked over the agent socket). */
  status(): AppRunStatus;
  /** Stops everything; `reason` says why (`doctor` and agents' helpers read it). */
  close(reason?: string): Promise<void>;
}

export async function startAppHost(options: AppHostOptions): Promise<AppHost> {
  // A flood of one failure (a team member's forged hints) must not fill the disk with traces.
  limitRepeatedLogs();
  const app = createApp(options);
  const subscribe = eventsForUi(app);
  const rendererDir = options.rendererDir && existsSync(options.rendererDir) ? options.rendererDir : null;
  const phonePageDir = options.phonePageDir ?? rendererDir;
  // The API reaches the phone listener through the host; a phone's calls act as that phone.
  const apiHost: ApiHost = { ...options.apiHost, phone: undefined };
  const dispatchFor = (caller: ApiCaller) => createDispatcher(createApiImplementation(app, apiHost, caller));
  const phone = new PhoneService({
    store: app.core.store,
    dataDir: options.dataDir,
    pageDir: phonePageDir && existsSync(phonePageDir) ? phonePageDir : null,
    dispatchFor,
    subscribe,
    changed: () => emitUiSignal(app, { type: 'phone.changed' }),
    now: options.phoneClock,
  });
  Object.assign(apiHost, { phone });
  const dispatch = dispatchFor({ kind: 'computer' });
  const notifier = new Notifier({
    settings: app.notifications,
    listNeedsYou: async () => resultOf<{ items: NeedsYouItem[] }>(await dispatch('needsYou.list', {}))?.items ?? [],
    listAgents: async () => resultOf<ManagedAgent[]>(await dispatch('agents.list', {})) ?? [],
    subscribe,
    links: { item: (item) => phone.itemLink(item.ref), agents: () => phone.agentsLink() },
  });
  const startedAt = new Date().toISOString();
  let web: WebHost | null = null;
  const status = (): AppRunStatus => ({
    kind: options.run?.kind ?? 'serve',
    pid: process.pid,
    startedAt,
    startedBy: options.run?.startedBy ?? 'person',
    agents: app.hub.connectionCount,
    windows: (options.openWindows?.() ?? 0) + (web?.openPages ?? 0),
    idleExitMs: options.idleExitMs ?? null,
    version: app.version,
  });
  const stop = (reason: string) => (options.onStop ?? (() => void host.close(reason)))(reason);
  let gateway: Gateway;
  try {
    gateway = await startGateway({
      dataDir: options.dataDir,
      handler: app.hub,
      apiCall: commandLineCall(dispatch, { status, stop }),
      http: {
        port: options.port ?? 0,
        preferredPort: options.preferredPort,
        extraHandler: rendererDir ? ({ port }) => (web = createWebHost({ rendererDir, port, dispatch, subscribe })) : undefined,
      },
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  // Neither keeps the app from starting: each says what went wrong.
  await phone.start().catch((error: unknown) => console.warn('phone access could not start:', error));
  await notifier.start().catch((error: unknown) => console.warn('notifications could not start:', error));
  const idle = options.idleExitMs
    ? watchIdle({
        quietMs: options.idleExitMs,
        busy: async () => status().agents > 0 || status().windows > 0 || (await takesTurns(app)),
        onIdle: () => stop(`it exited after ${quietPeriodText(options.idleExitMs!)} with no agent and no window`),
      })
    : null;
  let closing: Promise<void> | undefined;
  const host: AppHost = {
    app,
    gateway,
    dispatch,
    subscribe,
    phone,
    notifier,
    status,
    close: (reason) => (closing ??= (async () => {
      idle?.stop();
      await notifier.close();
      await phone.close();
      await gateway.close(reason);
      await app.close();
    })()),
  };
  return host;
}

function resultOf<T>(result: Awaited<ReturnType<Dispatch>>): T | null {
  return result.ok ? (result.value as T) : null;
}

/** A managed agent that is not paused still gets turns when mentioned, an active automation runs on its schedule or events: they need the app. */
async function takesTurns(app: App): Promise<boolean> {
  return (await app.agents.list()).some((agent) => agent.row.desired_state === 'running' && agent.row.held_reason === null) || (await app.automations.needsApp());
}

/**
 * What the command line may call over the agent socket (same token as agents): the
 * managed-agent and automation methods (`letagents-desktop agent …`, `automation …`), what runs, its teams and its roster
 * (`doctor`, `team list`), phone access (`phone …`) and stopping it (`stop`); not the rest of what a
 * person can do in the window.
 */
function commandLineCall(dispatch: Dispatch, run: { status: () => AppRunStatus; stop: (reason: string) => void }): ApiCallHandler {
  return async (method, input) => {
    if (method === 'app.status') return { ok: true, value: run.status() };
    if (method === 'app.stop') {
      // Answered first: the answer must leave before the socket closes.
      setTimeout(() => run.stop('stopped by `letagents-desktop stop`'), 50);
      return { ok: true, value: run.status() };
    }
    // teams.list: `team list` and `doctor` show the running app's teams, not the shell's;
    // workers.list: `doctor` names the connected agents a mention cannot wake;
    // phone.*: `letagents-desktop phone on|off|pair|list|revoke`; automations.*: `letagents-desktop automation …`.
    if (method.startsWith('agents.') || method.startsWith('automations.') || method.startsWith('phone.') || method === 'teams.list' || method === 'workers.list') return dispatch(method, input);
    return { ok: false, error: { code: 'not_allowed', message: `${method} cannot be called from the command line.` } };
  };
}
