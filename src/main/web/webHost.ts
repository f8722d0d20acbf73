// The browser host: the built renderer over HTTP plus the WebSocket bridge, plugged into
// the gateway's HTTP server as its `extraHandler`. The page carries no data and may load
// without the token (the token travels in the URL fragment); the socket requires it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WEB_SOCKET_PATH } from '../../shared/bridge';
import { checkLoopbackHost, checkLoopbackOrigin, checkLoopbackRequest, type GuardResult } from '../gateway/httpGuards';
import type { Dispatch } from '../api/dispatcher';
import { answerPlain, createStaticFiles } from './staticFiles';
import { createSocketBridge, type Subscribe } from './socketBridge';

export interface WebHostOptions {
  /** The built renderer (out/renderer), holding index.html and assets/. */
  rendererDir: string;
  /** The secret a page must present (as ?token=) to open the socket. */
  token: string;
  /** The port the HTTP server listens on (for the Host and Origin checks). */
  port: number;
  dispatch: Dispatch;
  /** Subscribes to core events already shaped for the UI (src/shared/events.ts). */
  subscribe: Subscribe;
}

export interface WebHost {
  /** True when the request was the browser host's (answered here). */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** True when the upgrade was for the UI socket (accepted or refused here). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): void;
}

export function createWebHost(options: WebHostOptions): WebHost {
  const files = createStaticFiles(options.rendererDir);
  const bridge = createSocketBridge(options.dispatch, options.subscribe);
  return {
    handleRequest(req, res) {
      if (pathOf(req) === WEB_SOCKET_PATH) {
        answerPlain(res, 426, 'Upgrade to a WebSocket.');
        return true;
      }
      // Static files need no token, but a foreign Host (DNS rebinding) or a cross-site
      // Origin is still refused, so no other site can frame or script against the page.
      const verdict = firstRefusal(checkLoopbackHost(req, options.port), checkLoopbackOrigin(req, options.port));
      if (verdict) {
        if (!isOurs(req)) return false;
        answerPlain(res, verdict.status, verdict.message);
        return true;
      }
      return files.serve(req, res);
    },
    handleUpgrade(req, socket, head) {
      if (pathOf(req) !== WEB_SOCKET_PATH) return false;
      const verdict = checkLoopbackRequest(req, { port: options.port, token: options.token, allowQueryToken: true });
      if (!verdict.ok) {
        refuseUpgrade(socket, verdict.status, verdict.message);
        return true;
      }
      bridge.server.handleUpgrade(req, socket, head, (ws) => bridge.server.emit('connection', ws, req));
      return true;
    },
    close() {
      bridge.close();
    },
  };
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split(/[?#]/, 1)[0];
}

/** Paths the browser host answers for: the page and its assets (not /mcp). */
function isOurs(req: IncomingMessage): boolean {
  const path = pathOf(req);
  return path === '/' || path === '/index.html' || path.startsWith('/assets/');
}

function firstRefusal(...results: GuardResult[]): Extract<GuardResult, { ok: false }> | null {
  for (const result of results) if (!result.ok) return result;
  return null;
}

const REASONS: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden', 421: 'Misdirected Request' };

function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = Buffer.from(message, 'utf8');
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Forbidden'}\r\n` +
      'Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${body.length}\r\n\r\n${body.toString('utf8')}`,
  );
}
