import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { connectionIdSource } from '../../../src/main/gateway/connectionIds';
import { startAgentHttpServer, type AgentHttpServer, type AgentHttpServerOptions, type ExtraHttpHandler } from '../../../src/main/gateway/httpServer';
import { connectHttp, recordingHandler } from '../../support';

const TOKEN = 'test-token-0123456789';
const running: AgentHttpServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Pick<AgentHttpServerOptions, 'sessionIdleMs' | 'extraHandler'> = {}) {
  const handler = recordingHandler();
  const server = await startAgentHttpServer({ port: 0, token: TOKEN, handler, nextConnectionId: connectionIdSource(), ...options });
  running.push(server);
  return { handler, server };
}

/** A raw HTTP request (node:http lets a test set Host, which fetch does not). */
function rawRequest(port: number, init: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: init.method ?? 'POST', path: init.path ?? '/mcp', headers: init.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const initializeBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const mcpHeaders = (port: number) => ({
  host: `127.0.0.1:${port}`,
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

describe('HTTP /mcp', () => {
  it('listens on 127.0.0.1 only', async () => {
    const { server } = await start();
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.mcpUrl).toBe(`http://127.0.0.1:${server.port}/mcp`);
  });

  it('refuses a request without the agent token with 401 and opens no session', async () => {
    const { server, handler } = await start();
    const { authorization: _, ...headers } = mcpHeaders(server.port);
    const res = await rawRequest(server.port, { headers, body: initializeBody });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="letagents-desktop"');
    expect(JSON.parse(res.body).error.message).toContain('Missing or wrong agent token');
    expect(handler.opened).toEqual([]);
  });

  it('refuses a foreign Host (DNS rebinding) even with the token', async () => {
    const { server, handler } = await start();
    const res = await rawRequest(server.port, { headers: { ...mcpHeaders(server.port), host: `evil.example:${server.port}` }, body: initializeBody });
    expect(res.status).toBe(421);
    expect(res.body).toContain(`Host "evil.example:${server.port}" is not this app's address`);
    expect(handler.opened).toEqual([]);
  });

  it('refuses a cross-site Origin even with the token', async () => {
    const { server, handler } = await start();
    const res = await rawRequest(server.port, { headers: { ...mcpHeaders(server.port), origin: 'https://evil.example' }, body: initializeBody });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toBe('Refused: cross-site request from Origin "https://evil.example".');
    expect(handler.opened).toEqual([]);
  });

  it('gives each session its own MCP server and marks every request as activity', async () => {
    const { server, handler } = await start();
    const a = await connectHttp(server.mcpUrl, TOKEN);
    const b = await connectHttp(server.mcpUrl, TOKEN);
    expect(handler.opened.map((c) => c.transport)).toEqual(['http', 'http']);
    expect(handler.opened[0]).toMatchObject({ cwd: null, ideHint: null });
    const first = await a.callTool({ name: 'echo', arguments: { text: 'hi' } });
    const second = await b.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(first.content).toEqual([{ type: 'text', text: `${handler.opened[0].id}:hi` }]);
    expect(second.content).toEqual([{ type: 'text', text: `${handler.opened[1].id}:hi` }]);
    expect(handler.touchedIds.filter((id) => id === handler.opened[0].id).length).toBeGreaterThanOrEqual(2);
    expect(server.sessionCount).toBe(2);
    await a.close();
    await b.close();
  });

  it('ends a session on DELETE and then answers its id with 404', async () => {
    const { server, handler } = await start();
    const client = await connectHttp(server.mcpUrl, TOKEN);
    const transport = client.transport as unknown as { terminateSession(): Promise<void>; sessionId?: string };
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    await handler.whenClosed(handler.opened[0].id);
    expect(server.sessionCount).toBe(0);
    const res = await rawRequest(server.port, {
      headers: { ...mcpHeaders(server.port), 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    await client.close();
  });

  it('refuses a first request that is not initialize', async () => {
    const { server, handler } = await start();
    const res = await rawRequest(server.port, { headers: mcpHeaders(server.port), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(res.status).toBe(400);
    expect(handler.opened).toEqual([]);
  });

  it('expires a session after its idle time with no request and no open stream', async () => {
    const { server, handler } = await start({ sessionIdleMs: 300 });
    const res = await rawRequest(server.port, { headers: mcpHeaders(server.port), body: initializeBody });
    expect(res.status).toBe(200);
    expect(typeof res.headers['mcp-session-id']).toBe('string');
    await handler.whenClosed(handler.opened[0].id);
    expect(server.sessionCount).toBe(0);
  });

  it('keeps a session whose client holds its event stream open', async () => {
    const { server, handler } = await start({ sessionIdleMs: 300 });
    const client = await connectHttp(server.mcpUrl, TOKEN);
    // Bounded, to show what does not come: over three idle times pass with the stream open.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(handler.closedIds).toEqual([]);
    await client.listTools();
    await client.close();
  });

  it('ends all sessions when it stops', async () => {
    const { server, handler } = await start();
    await connectHttp(server.mcpUrl, TOKEN);
    await server.close();
    expect(handler.closedIds).toEqual([handler.opened[0].id]);
  });

  it('hands other paths and upgrades to the extra handler, after checking the Host', async () => {
    const seen: string[] = [];
    const extraHandler: ExtraHttpHandler = {
      handleRequest(req, res) {
        if (req.url !== '/index.html') return false;
        seen.push(req.url);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>ui</p>');
        return true;
      },
      handleUpgrade(req, socket) {
        seen.push(`upgrade ${req.url}`);
        socket.end('HTTP/1.1 418 Teapot\r\nConnection: close\r\n\r\n');
        return true;
      },
    };
    const { server } = await start({ extraHandler });
    const host = { host: `127.0.0.1:${server.port}` };
    expect(await rawRequest(server.port, { method: 'GET', path: '/index.html', headers: host })).toMatchObject({ status: 200, body: '<p>ui</p>' });
    expect((await rawRequest(server.port, { method: 'GET', path: '/other', headers: host })).status).toBe(404);
    expect((await rawRequest(server.port, { method: 'GET', path: '/index.html', headers: { host: 'evil.example' } })).status).toBe(421);
    const upgrade = await new Promise<number>((resolve) => {
      request({ host: '127.0.0.1', port: server.port, path: '/ws', headers: { ...host, connection: 'upgrade', upgrade: 'websocket' } })
        .on('response', (res) => resolve(res.statusCode!))
        .on('error', () => resolve(0))
        .end();
    });
    expect(upgrade).toBe(418);
    expect(seen).toEqual(['/index.html', 'upgrade /ws']);
  });

  it('lets the extra handler be built once the port is known', async () => {
    let known = 0;
    const { server } = await start({
      extraHandler: (info) => {
        known = info.port;
        return { handleRequest: () => false };
      },
    });
    expect(known).toBe(server.port);
  });
});
