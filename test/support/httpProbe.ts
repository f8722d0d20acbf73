// Raw HTTP requests and WebSocket upgrades for access tests (fetch cannot forge Host):
// every header (Host, Origin, Authorization) exactly as a hostile page or program would send it.
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface ProbeAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

export interface Probe {
  readonly method?: string;
  /** Default "/". */
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** One request to 127.0.0.1:`port`; `headers.Host` replaces the real Host when given. */
export function probe(port: number, what: Probe = {}): Promise<ProbeAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: what.method ?? 'GET', path: what.path ?? '/', headers: what.headers, timeout: 5_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${what.method ?? 'GET'} ${what.path ?? '/'}`)));
    req.on('error', reject);
    req.end(what.body);
  });
}

/** A WebSocket upgrade; resolves with 101 when accepted (the socket is closed again) or the refusal's status. */
export function probeUpgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      timeout: 5_000,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        ...headers,
      },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to the upgrade of ${path}`)));
    req.on('error', reject);
    req.end();
  });
}

/** The JSON-RPC initialize an MCP client sends first. */
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1.0.0' } },
});

export const MCP_POST_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
