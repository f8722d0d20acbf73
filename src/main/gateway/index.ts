// The agent gateway: the agent socket and the HTTP server (/mcp plus the browser host's
// extra handler), sharing one agent token and one connection-id sequence. Used by
// `serve` and by the Electron main process.
import { rmSync, writeFileSync } from 'node:fs';
import { appStoppedPath } from '../../shared-node/dataPaths';
import type { McpConnectionHandler } from '../mcp/connection';
import { ensureAgentToken } from './agentToken';
import { connectionIdSource } from './connectionIds';
import { startAgentHttpServer, type AgentHttpServer, type ExtraHttpHandler, type HttpServerInfo } from './httpServer';
import { startAgentSocketServer, type AgentSocketServer } from './socketServer';
import type { ApiCallHandler, SocketConnectionTimings } from './socketConnection';

export { AppAlreadyRunningError } from './socketServer';
export { checkLoopbackHost, checkLoopbackOrigin, checkLoopbackRequest, type GuardResult } from './httpGuards';
export { ensureAgentToken, readAgentToken, tokensEqual } from './agentToken';
export type { ExtraHttpHandler, HttpServerInfo } from './httpServer';

export interface GatewayOptions {
  readonly dataDir: string;
  readonly handler: McpConnectionHandler;
  /** The HTTP server; false leaves it off (socket only). */
  readonly http?: false | {
    /** 0 (default) picks a free port. */
    readonly port?: number;
    /** With port 0: the port to try first (see lastPort.ts). */
    readonly preferredPort?: number | null;
    readonly extraHandler?: ExtraHttpHandler | ((info: HttpServerInfo) => ExtraHttpHandler);
    readonly sessionIdleMs?: number;
  };
  readonly socketTimings?: Partial<SocketConnectionTimings>;
  /** Answers command-line API calls that arrive on the agent socket (see host.ts for which). */
  readonly apiCall?: ApiCallHandler;
}

export interface Gateway {
  readonly dataDir: string;
  readonly token: string;
  readonly socketPath: string;
  /** Null when HTTP is off. */
  readonly http: AgentHttpServer | null;
  /** A fresh link to the browser UI with a one-time code in the fragment; null when there is no browser UI. */
  newUiUrl(): string | null;
  /**
   * Stops listening. A clean close is a stop on purpose: it leaves `app-stopped` with the reason,
   * so agents' helpers wait for the app instead of starting it again (they do after a crash).
   */
  close(reason?: string): Promise<void>;
}

/** Starts socket then HTTP; throws AppAlreadyRunningError when another app serves the folder. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const token = ensureAgentToken(options.dataDir);
  const nextConnectionId = connectionIdSource();
  let http: AgentHttpServer | null = null;
  const newUiUrl = () => http?.newUiUrl() ?? null;
  const socket: AgentSocketServer = await startAgentSocketServer({
    dataDir: options.dataDir,
    token,
    handler: options.handler,
    nextConnectionId,
    timings: options.socketTimings,
    uiLink: newUiUrl,
    apiCall: options.apiCall,
  });
  if (options.http !== false) {
    try {
      http = await startAgentHttpServer({
        port: options.http?.port ?? 0,
        preferredPort: options.http?.preferredPort,
        token,
        handler: options.handler,
        nextConnectionId,
        extraHandler: options.http?.extraHandler,
        sessionIdleMs: options.http?.sessionIdleMs,
      });
    } catch (error) {
      await socket.close();
      throw error;
    }
  }
  // Running now: a helper that loses this app may start it again, until it stops on purpose.
  rmSync(appStoppedPath(options.dataDir), { force: true });
  let closing: Promise<void> | undefined;
  return {
    dataDir: options.dataDir,
    token,
    socketPath: socket.path,
    http,
    newUiUrl,
    close: (reason) =>
      (closing ??= Promise.all([http?.close(), socket.close()]).then(() => {
        try {
          writeFileSync(appStoppedPath(options.dataDir), `${reason ?? 'it was stopped'}\n`, { mode: 0o600 });
        } catch (error) {
          // The folder went away (removed under us): nothing is left for a helper to restart.
          console.warn(`could not note the stop in ${options.dataDir}:`, (error as Error).message);
        }
      })),
  };
}
