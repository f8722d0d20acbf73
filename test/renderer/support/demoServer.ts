// Serves the built renderer (out/renderer) through the real browser host, backed by the
// in-memory API double: for screenshots and browser checks without the app core.
import { createServer } from 'node:http';
import { createDispatcher } from '../../../src/main/api/dispatcher';
import { createWebHost } from '../../../src/main/web/webHost';
import { createFakeApi, type FakeApi, type FakeState } from './fakeApi';

export interface DemoServer {
  /** A page URL with a fresh one-time code in the fragment, like `serve` prints (new at every read). */
  readonly url: string;
  origin: string;
  api: FakeApi;
  close(): Promise<void>;
}

export async function startDemoServer(rendererDir: string, state: FakeState): Promise<DemoServer> {
  const api = createFakeApi(state);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const host = createWebHost({ rendererDir, port, dispatch: createDispatcher(api.impl), subscribe: (listener) => api.subscribe(listener) });
  server.on('request', (req, res) => {
    if (!host.handleRequest(req, res)) res.writeHead(404).end('Not found');
  });
  server.on('upgrade', (req, socket, head) => {
    if (!host.handleUpgrade(req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    get url() {
      return `${origin}${host.newUiLink()}`;
    },
    origin,
    api,
    async close() {
      host.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
