// The browser host: the built renderer over HTTP plus the WebSocket bridge, plugged into
// the gateway's HTTP server as its `extraHandler`. The page carries no data and loads
// without a session; links carry a one-time code the page trades for a session cookie
// and page key (uiAccess.ts), and the socket requires both. It never sees the agent token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { UI_SESSION_PATH, WEB_SOCKET_PATH } from '../../shared/bridge';
import { pathOf, refuseUpgrade, socketKey } from './requestParts';
import { checkLoopbackHost, checkLoopbackOrigin, type GuardResult } from '../gateway/httpGuards';
import type { Dispatch } from '../api/dispatcher';
import { answerSession, REFUSALS } from './sessionEndpoint';
import { answerPlain, createStaticFiles } from './staticFiles';
import { createSocketBridge, type Subscribe } from './socketBridge';
import { UiAccess } from './uiAccess';

export interface WebHostOptions {
  /** The built renderer (out/renderer), holding index.html and assets/. */
  rendererDir: string;
  /** The port the HTTP server listens on (for the Host and Origin checks, and the cookie's name). */
  port: number;
  dispatch: Dispatch;
  /** Subscribes to core events already shaped for the UI (src/shared/events.ts). */
  subscribe: Subscribe;
  /** Tests pass their own (a clock, a short code lifetime). */
  access?: UiAccess;
}

export interface WebHost {
  /** True when the request was the browser host's (answered here). */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** True when the upgrade was for the UI socket (accepted or refused here). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** A fresh one-time link to the UI: "/#code=…", to put after the origin. */
  newUiLink(): string;
  /** Browser tabs connected now. */
  readonly openPages: number;
  close(): void;
}

export function createWebHost(options: WebHostOptions): WebHost {
  const files = createStaticFiles(options.rendererDir);
  const bridge = createSocketBridge(options.dispatch, options.subscribe);
  const access = options.access ?? new UiAccess(options.port);
  const guard = (req: IncomingMessage) => firstRefusal(checkLoopbackHost(req, options.port), checkLoopbackOrigin(req, options.port));
  const endSessions = () => {
    access.endSessions();
    bridge.closeAll(1008, 'Session ended; open the app again.');
  };
  return {
    get openPages() {
      return bridge.server.clients.size;
    },
    handleRequest(req, res) {
      const path = pathOf(req);
      if (path === WEB_SOCKET_PATH) {
        answerPlain(res, 426, 'Upgrade to a WebSocket.');
        return true;
      }
      // Nothing is served to a foreign Host (DNS rebinding) or a cross-site Origin, so no
      // other site can frame or script against the page or start a session.
      const verdict = guard(req);
      if (verdict) {
        if (!isOurs(req)) return false;
        answerPlain(res, verdict.status, verdict.message);
        return true;
      }
      if (path === UI_SESSION_PATH) {
        answerSession(req, res, access, endSessions).catch(() => res.destroy());
        return true;
      }
      return files.serve(req, res);
    },
    handleUpgrade(req, socket, head) {
      if (pathOf(req) !== WEB_SOCKET_PATH) return false;
      const verdict = guard(req) ?? (access.hasSession(req, socketKey(req)) ? null : { status: 401, message: REFUSALS.no_session });
      if (verdict) {
        refuseUpgrade(socket, verdict.status, verdict.message);
        return true;
      }
      bridge.server.handleUpgrade(req, socket, head, (ws) => bridge.server.emit('connection', ws, req));
      return true;
    },
    newUiLink: () => `/#code=${access.newCode()}`,
    close() {
      bridge.close();
    },
  };
}

/** Paths the browser host answers for: the page, its assets and the session (not /mcp). */
function isOurs(req: IncomingMessage): boolean {
  const path = pathOf(req);
  return path === '/' || path === '/index.html' || path === UI_SESSION_PATH || path.startsWith('/assets/');
}

function firstRefusal(...results: GuardResult[]): Extract<GuardResult, { ok: false }> | null {
  for (const result of results) if (!result.ok) return result;
  return null;
}
