// A tiny "foreign site" server for drive-by checks; raw requests come from test/support.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';


/** Serves one HTML page on 127.0.0.1 (a stand-in for another site the person visits). */
export async function servePage(html: string): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
