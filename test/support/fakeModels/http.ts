// A loopback HTTP server for a fake model API: JSON bodies in, JSON or server-sent events out.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeModelServer {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** What the provider CLI needs in its environment or config to use this server. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, body: unknown, res: ServerResponse) => Promise<void> | void;

export async function listen(route: Route): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        res.writeHead(400).end('{"error":"bad json"}');
        return;
      }
      Promise.resolve(route(req, body, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: String(error) }));
      });
    });
  });
  // A killed CLI leaves half-written answers behind; that is not the fake's problem.
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** Starts an event stream; `send(type, data)` writes one server-sent event. */
export function eventStream(res: ServerResponse): { send(type: string, data: Record<string, unknown>): void; end(): void } {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return {
    send: (type, data) => void (!res.destroyed && res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)),
    end: () => void (!res.destroyed && res.end()),
  };
}
