// A local fake of an ntfy server (and of a webhook): a plain HTTP server on 127.0.0.1 that
// records every request it receives (path, authorization, JSON body) and answers 200, or the
// status a test asks for.
import { createServer, type Server } from 'node:http';

export interface ReceivedNotification {
  readonly path: string;
  readonly authorization: string | null;
  readonly body: Record<string, unknown>;
}

export interface FakeNtfy {
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  readonly received: ReceivedNotification[];
  /** The status every later request is answered with. */
  answerWith(status: number): void;
  close(): Promise<void>;
}

export async function startFakeNtfy(): Promise<FakeNtfy> {
  const received: ReceivedNotification[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { raw: text };
      }
      received.push({ path: req.url ?? '/', authorization: req.headers.authorization ?? null, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"id":"x"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answerWith: (next) => void (status = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
