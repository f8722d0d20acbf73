// Per-connection limits (issue 15 item 5), on the agent socket and an HTTP /mcp session:
// an agent that stops reading its replies, or has too many calls in flight, gets its
// connection closed with a logged reason; another agent's connection carries on.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureAgentToken } from '../../../src/main/gateway/agentToken';
import { connectionIdSource } from '../../../src/main/gateway/connectionIds';
import { MAX_CALLS_IN_FLIGHT } from '../../../src/main/gateway/connectionLimits';
import { startAgentHttpServer, type AgentHttpServer } from '../../../src/main/gateway/httpServer';
import { startAgentSocketServer, type AgentSocketServer } from '../../../src/main/gateway/socketServer';
import { cleanupSpawned, connectHttp, openRawSocket, recordingHandler, shakeHands, tempDataDir, waitUntil } from '../../support';

const running: Array<AgentSocketServer | AgentHttpServer> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(running.splice(0).map((s) => s.close()));
  await cleanupSpawned();
});

const MiB = 1024 * 1024;
const call = (id: number, name: string, args: object = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const warnings = () => {
  const spy = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  return () => spy.mock.calls.map((args) => args.join(' '));
};

async function socketApp() {
  const dataDir = tempDataDir();
  const token = ensureAgentToken(dataDir);
  const handler = recordingHandler();
  const server = await startAgentSocketServer({ dataDir, token, handler, nextConnectionId: connectionIdSource() });
  running.push(server);
  /** An agent connection past the handshake and initialize. */
  const agent = async () => {
    const raw = await openRawSocket(server.path);
    await shakeHands(raw, token);
    raw.send(initialize);
    await raw.nextLine();
    raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return raw;
  };
  return { handler, agent };
}

describe('the agent socket', () => {
  it('closes a connection whose agent leaves more than 16 MiB of replies unread, and says why', async () => {
    const logged = warnings();
    const { handler, agent } = await socketApp();
    const reader = await agent();
    const stalled = await agent();
    // From now on this agent reads nothing: its replies pile up in the app.
    stalled.socket.pause();
    stalled.socket.removeAllListeners('data');
    const text = 'x'.repeat(MiB);
    for (let i = 1; i <= 40; i++) stalled.send(call(i, 'echo', { text }));
    await stalled.closed;
    expect(logged()).toContain('agent socket: closed c2: more than 16 MiB of replies unread (the agent stopped reading).');
    await handler.whenClosed('c2');
    // The other agent carries on.
    reader.send(call(1, 'echo', { text: 'still here' }));
    expect(JSON.parse(await reader.nextLine()).result.content[0].text).toBe('c1:still here');
  });

  it(`closes a connection with more than ${MAX_CALLS_IN_FLIGHT} calls in flight, and says why`, async () => {
    const logged = warnings();
    const { handler, agent } = await socketApp();
    const flooding = await agent();
    for (let i = 1; i < MAX_CALLS_IN_FLIGHT; i++) flooding.send(call(i, 'hang'));
    flooding.send(call(MAX_CALLS_IN_FLIGHT, 'echo', { text: 'answered' }));
    // Up to the limit the calls are fine (the 64th answers while 63 others wait)…
    expect(JSON.parse(await flooding.nextLine()).id).toBe(MAX_CALLS_IN_FLIGHT);
    expect(handler.closedIds).toEqual([]);
    // …two more waiting make 65: too many.
    flooding.send(call(MAX_CALLS_IN_FLIGHT + 1, 'hang'));
    flooding.send(call(MAX_CALLS_IN_FLIGHT + 2, 'hang'));
    await flooding.closed;
    expect(logged()).toContain(`agent socket: closed c1: more than ${MAX_CALLS_IN_FLIGHT} calls in flight at once.`);
  });
});

describe('an HTTP /mcp session', () => {
  const TOKEN = 'http-limits-token-0123456789';

  async function httpApp() {
    const handler = recordingHandler();
    const server = await startAgentHttpServer({ port: 0, token: TOKEN, handler, nextConnectionId: connectionIdSource() });
    running.push(server);
    const headers = (sessionId?: string) =>
      `Host: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\nAccept: application/json, text/event-stream\r\n` +
      'Content-Type: application/json\r\nMCP-Protocol-Version: 2025-06-18\r\n' + (sessionId ? `Mcp-Session-Id: ${sessionId}\r\n` : '');
    /** One request on its own connection that is never read. */
    const unread = (method: string, sessionId: string, body?: object): Socket => {
      const socket = connect(server.port, '127.0.0.1');
      socket.on('error', () => undefined);
      const text = body ? JSON.stringify(body) : '';
      socket.write(`${method} /mcp HTTP/1.1\r\n${headers(sessionId)}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
      return socket;
    };
    const session = async () => {
      const response = await fetch(server.mcpUrl, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' },
        body: JSON.stringify(initialize),
      });
      await response.text();
      const id = response.headers.get('mcp-session-id')!;
      await fetch(server.mcpUrl, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      }).then((r) => r.text());
      return id;
    };
    return { server, handler, unread, session };
  }

  it('closes a session whose client leaves more than 16 MiB unread on its event stream, and says why', async () => {
    const logged = warnings();
    const { server, handler, unread, session } = await httpApp();
    const other = await connectHttp(server.mcpUrl, TOKEN);
    const id = await session();
    const stream = unread('GET', id);
    await waitUntil(() => handler.touchedIds.filter((t) => t === handler.opened[1].id).length >= 3, 5_000, 'the event stream to open');
    // The app pushes notifications on the stream the client never reads.
    const transport = handler.servers[1].server.transport!;
    const big = 'x'.repeat(MiB);
    for (let i = 0; i < 40 && !handler.closedIds.includes(handler.opened[1].id); i++) {
      await transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: big } }).catch(() => undefined);
      await new Promise((r) => setImmediate(r));
    }
    await handler.whenClosed(handler.opened[1].id);
    expect(logged()).toContain(`mcp http: closed session ${handler.opened[1].id}: more than 16 MiB of replies unread (the agent stopped reading).`);
    stream.destroy();
    expect((await other.callTool({ name: 'echo', arguments: { text: 'fine' } })).content).toEqual([{ type: 'text', text: `${handler.opened[0].id}:fine` }]);
    await other.close();
  });

  it(`closes a session with more than ${MAX_CALLS_IN_FLIGHT} calls in flight (429), and says why`, async () => {
    const logged = warnings();
    const { server, handler, unread, session } = await httpApp();
    const id = await session();
    const sockets = Array.from({ length: MAX_CALLS_IN_FLIGHT }, (_, i) => unread('POST', id, call(i + 1, 'hang')));
    await waitUntil(() => handler.touchedIds.filter((t) => t === handler.opened[0].id).length >= MAX_CALLS_IN_FLIGHT + 2, 10_000, 'the calls to arrive');
    expect(handler.closedIds).toEqual([]);
    const refused = await fetch(server.mcpUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify(call(999, 'hang')),
    });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(`Too many calls in flight (${MAX_CALLS_IN_FLIGHT})`);
    await handler.whenClosed(handler.opened[0].id);
    expect(logged()).toContain(`mcp http: closed session ${handler.opened[0].id}: more than ${MAX_CALLS_IN_FLIGHT} calls in flight at once.`);
    for (const socket of sockets) socket.destroy();
  });
});
