// Hosting the app: the core (createApp), the app API behind one dispatcher, the agent
// gateway (socket + HTTP /mcp) and, where a renderer is given, the browser host on the
// same loopback HTTP server. `serve` and the Electron main process both start it.
import { existsSync } from 'node:fs';
import { createApp, type App, type AppOptions } from './app';
import { createApiImplementation, createDispatcher, eventsForUi, type ApiHost, type Dispatch } from './api';
import { startGateway, type Gateway } from './gateway';
import { limitRepeatedLogs } from './logLimit';
import type { ApiCallHandler } from './gateway/socketConnection';
import { createWebHost } from './web/webHost';

export interface AppHostOptions extends AppOptions {
  /** HTTP port on 127.0.0.1 (0 picks a free one). */
  readonly port?: number;
  /** With port 0: a port to try first; a free one when it is taken. */
  readonly preferredPort?: number | null;
  /** The built renderer to serve to browsers (out/renderer); omitted or missing: no browser UI. */
  readonly rendererDir?: string;
  /** What the host can do for the UI (open links, folders). */
  readonly apiHost?: ApiHost;
}

export interface AppHost {
  readonly app: App;
  readonly gateway: Gateway;
  readonly dispatch: Dispatch;
  readonly subscribe: ReturnType<typeof eventsForUi>;
  close(): Promise<void>;
}

export async function startAppHost(options: AppHostOptions): Promise<AppHost> {
  // A flood of one failure (a team member's forged hints) must not fill the disk with traces.
  limitRepeatedLogs();
  const app = createApp(options);
  const dispatch = createDispatcher(createApiImplementation(app, options.apiHost));
  const subscribe = eventsForUi(app);
  const rendererDir = options.rendererDir && existsSync(options.rendererDir) ? options.rendererDir : null;
  let gateway: Gateway;
  try {
    gateway = await startGateway({
      dataDir: options.dataDir,
      handler: app.hub,
      apiCall: commandLineCall(dispatch),
      http: {
        port: options.port ?? 0,
        preferredPort: options.preferredPort,
        extraHandler: rendererDir ? ({ port }) => createWebHost({ rendererDir, port, dispatch, subscribe }) : undefined,
      },
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    app,
    gateway,
    dispatch,
    subscribe,
    close: () => (closing ??= (async () => {
      await gateway.close();
      await app.close();
    })()),
  };
}

/**
 * What `letagents-desktop agent …` may call over the agent socket (same token as agents):
 * the managed-agent methods only, not the rest of what a person can do in the window.
 */
function commandLineCall(dispatch: Dispatch): ApiCallHandler {
  return async (method, input) =>
    method.startsWith('agents.')
      ? dispatch(method, input)
      : { ok: false, error: { code: 'not_allowed', message: `${method} cannot be called from the command line.` } };
}
