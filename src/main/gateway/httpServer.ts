// The app's HTTP server on 127.0.0.1: `/mcp` for agents, everything else (UI files,
// the WebSocket bridge) handed to an optional extra handler from src/main/web. Every
// request must name this app's loopback Host; /mcp also checks Origin and the token.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { McpConnectionHandler } from '../mcp/connection';
import type { ConnectionIdSource } from './connectionIds';
import { checkLoopbackHost } from './httpGuards';
import { McpHttpEndpoint } from './mcpHttpEndpoint';

export const LOOPBACK_HOST = '127.0.0.1';

/** Serves non-/mcp paths. Returns false to let the server answer 404. It runs its own guards. */
export interface ExtraHttpHandler {
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  handleUpgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** A fresh one-time link to the browser UI ("/#code=…"); absent where there is no UI. */
  newUiLink?(): string;
  /** Called on shutdown, e.g. to close WebSockets (upgraded sockets are not the server's any more). */
  close?(): Promise<void> | void;
}

/** What an extra handler may need once the server listens (the port is known only then). */
export interface HttpServerInfo {
  readonly port: number;
}

export interface AgentHttpServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** With port 0: a port to try first (the one it had last time); a free one when that is taken. */
  readonly preferredPort?: number | null;
  readonly token: string;
  readonly handler: McpConnectionHandler;
  readonly nextConnectionId: ConnectionIdSource;
  readonly extraHandler?: ExtraHttpHandler | ((info: HttpServerInfo) => ExtraHttpHandler);
  /** Tests shorten it; default 30 min. */
  readonly sessionIdleMs?: number;
}

export interface AgentHttpServer {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  readonly mcpUrl: string;
  readonly sessionCount: number;
  /** A fresh one-time link to the browser UI; null when this server has none. */
  newUiUrl(): string | null;
  close(): Promise<void>;
}

export async function startAgentHttpServer(options: AgentHttpServerOptions): Promise<AgentHttpServer> {
  const mcp = new McpHttpEndpoint(options);
  // Both are known only once the server listens.
  const bound: { port: number; extra?: ExtraHttpHandler } = { port: 0 };

  const server = createServer((req, res) => {
    void route(req, res).catch((error: unknown) => {
      console.error('http: request failed:', error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal error');
    });
  });
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const host = checkLoopbackHost(req, bound.port);
    if (!host.ok) return void res.writeHead(host.status, { 'content-type': 'text/plain' }).end(host.message);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/mcp') return mcp.handle(req, res, bound.port);
    if (bound.extra?.handleRequest(req, res)) return;
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    // A foreign Host is refused as on plain requests (421), before any handler sees it.
    const host = checkLoopbackHost(req, bound.port);
    if (!host.ok) return void socket.end(`HTTP/1.1 421 Misdirected Request\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${host.message}`);
    if (bound.extra?.handleUpgrade?.(req, socket, head)) return;
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, LOOPBACK_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
  const preferred = options.port === 0 ? options.preferredPort : null;
  if (preferred) {
    await listen(preferred).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
      return listen(0);
    });
  } else {
    await listen(options.port);
  }
  const port = (bound.port = (server.address() as { port: number }).port);
  const info: HttpServerInfo = { port };
  bound.extra = typeof options.extraHandler === 'function' ? options.extraHandler(info) : options.extraHandler;
  const origin = `http://${LOOPBACK_HOST}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    port,
    origin,
    mcpUrl: `${origin}/mcp`,
    get sessionCount() {
      return mcp.sessionCount;
    },
    newUiUrl: () => (bound.extra?.newUiLink ? `${origin}${bound.extra.newUiLink()}` : null),
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await mcp.closeAll();
        await bound.extra?.close?.();
        server.closeAllConnections();
        await closed;
      })()),
  };
}
