// Serves the built renderer (out/renderer) through the real browser host, backed by the
// in-memory API double: for screenshots and browser checks without the app core.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createDispatcher } from '../../../src/main/api/dispatcher';
import { createWebHost } from '../../../src/main/web/webHost';
import { createFakeApi, type FakeApi, type FakeState } from './fakeApi';

export interface DemoServer {
  /** The page URL with its token in the fragment, like `serve` prints. */
  url: string;
  origin: string;
  api: FakeApi;
  close(): Promise<void>;
}

export async function startDemoServer(rendererDir: string, state: FakeState): Promise<DemoServer> {
  const api = createFakeApi(state);
  const token = randomBytes(32).toString('hex');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const host = createWebHost({ rendererDir, token, port, dispatch: createDispatcher(api.impl), subscribe: (listener) => api.subscribe(listener) });
  server.on('request', (req, res) => {
    if (!host.handleRequest(req, res)) res.writeHead(404).end('Not found');
  });
  server.on('upgrade', (req, socket, head) => {
    if (!host.handleUpgrade(req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    api,
    async close() {
      host.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
