// TEST ONLY: a loopback proxy that adds "Authorization: Bearer <agent-token>" for clients
// that cannot send it (the MCP conformance runner) and passes everything else through
// unchanged, the Host header included, so /mcp still runs its own Host and Origin checks.
// It listens on [::1] with serve's own port number: a Host of "[::1]:<port>" is then one of
// the loopback addresses serve accepts, and a foreign Host is refused by serve, not here.
import { createServer, request, type Server } from 'node:http';

export interface BearerProxy {
  /** http://[::1]:<serve's port>/mcp */
  readonly mcpUrl: string;
  close(): Promise<void>;
}

export async function startBearerProxy(target: { readonly port: number; readonly token: string }): Promise<BearerProxy> {
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${target.token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    // A client that hangs up (e.g. cancelling an SSE stream) ends the upstream request too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(target.port, '::1', () => resolve());
  });
  return {
    mcpUrl: `http://[::1]:${target.port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
