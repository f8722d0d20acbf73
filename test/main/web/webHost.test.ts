// The browser host: the built renderer over HTTP (strict CSP, no traversal, right content
// types) and the WebSocket bridge behind the token, Host and Origin checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { createDispatcher } from '../../../src/main/api/dispatcher';
import { createWebHost, type WebHost } from '../../../src/main/web/webHost';
import { createApiClient } from '../../../src/renderer/src/api/client';
import { createWebSocketTransport } from '../../../src/renderer/src/api/webSocketTransport';
import { createFakeApi, type FakeApi } from '../../renderer/support/fakeApi';
import { demoState } from '../../renderer/support/demoSeed';

const TOKEN = 'a'.repeat(64);
let dir: string;
let server: Server;
let host: WebHost;
let port: number;
let api: FakeApi;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'letagents-web-'));
  const renderer = path.join(dir, 'renderer');
  mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>LetAgents</title>');
  writeFileSync(path.join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(renderer, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(path.join(renderer, 'assets', 'notes.xyz'), 'unknown type');
  writeFileSync(path.join(dir, 'secret.txt'), 'SECRET');
  symlinkSync(path.join(dir, 'secret.txt'), path.join(renderer, 'assets', 'link.js'));
  api = createFakeApi(demoState());
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  host = createWebHost({ rendererDir: renderer, token: TOKEN, port, dispatch: createDispatcher(api.impl), subscribe: (listener) => api.subscribe(listener) });
  server.on('request', (req, res) => {
    if (!host.handleRequest(req, res)) res.writeHead(404).end('Not found');
  });
  server.on('upgrade', (req, socket, head) => {
    if (!host.handleUpgrade(req, socket, head)) socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
  });
});

afterAll(async () => {
  host.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function get(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(query: string, headers: Record<string, string> = {}): Promise<{ socket: WebSocket; status: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws${query}`, { headers: { origin: `http://127.0.0.1:${port}`, ...headers } });
    socket.on('open', () => resolve({ socket, status: 101 }));
    socket.on('unexpected-response', (_req, res) => resolve({ socket, status: res.statusCode ?? 0 }));
    socket.on('error', () => {});
  });
}

function nextFrame(socket: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

describe('static files', () => {
  it('serves the page without the token, with a strict CSP and no caching', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>LetAgents</title>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('serves assets with their content types; hashed assets are cached', async () => {
    const js = await get('/assets/index-abc.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toContain('immutable');
    expect((await get('/assets/index-abc.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await get('/index.html')).status).toBe(200);
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const attempt of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e%5c%2e%2e%5csecret.txt', '/assets/link.js', '/%00', '/assets/%E0%A4%A']) {
      const res = await get(attempt);
      expect([400, 404]).toContain(res.status);
      expect(res.body).not.toContain('SECRET');
    }
  });

  it('serves only known file types and only GET/HEAD', async () => {
    expect((await get('/assets/notes.xyz')).status).toBe(404);
    expect((await get('/', {}, 'POST')).status).toBe(404);
    const head = await get('/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('refuses the page under a foreign Host (DNS rebinding) or a cross-site Origin', async () => {
    expect((await get('/', { host: `evil.example:${port}` })).status).toBe(421);
    expect((await get('/', { origin: 'https://evil.example' })).status).toBe(403);
  });
});

describe('WebSocket bridge', () => {
  it('refuses a socket without the token, with a wrong token, a foreign Host or a cross-site Origin', async () => {
    expect((await openSocket('')).status).toBe(401);
    expect((await openSocket(`?token=${'b'.repeat(64)}`)).status).toBe(401);
    expect((await openSocket(`?token=${TOKEN}`, { host: `evil.example:${port}` })).status).toBe(421);
    expect((await openSocket(`?token=${TOKEN}`, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await openSocket(`?token=${TOKEN}`, { origin: `http://localhost:${port + 1}` })).status).toBe(403);
  });

  it('answers a call with the same result as the dispatcher, by id', async () => {
    const { socket, status } = await openSocket(`?token=${TOKEN}`);
    expect(status).toBe(101);
    socket.send(JSON.stringify({ id: 7, method: 'rooms.list', input: {} }));
    const frame = await nextFrame(socket);
    expect(frame.id).toBe(7);
    expect(frame.result).toMatchObject({ ok: true, value: expect.arrayContaining([expect.objectContaining({ id: 'github.com/acme/checkout-service' })]) });
    socket.send(JSON.stringify({ id: 8, method: 'tasks.create', input: { roomId: 'x', title: '' } }));
    expect(await nextFrame(socket)).toEqual({ id: 8, result: { ok: false, error: { code: 'invalid_input', message: 'title: Task title is required.' } } });
    socket.send('not json');
    expect(await nextFrame(socket)).toEqual({ id: null, result: { ok: false, error: { code: 'invalid_request', message: 'A call is {"id", "method", "input"}.' } } });
    socket.close();
  });

  it('pushes core events to each open socket, and stops after it closes', async () => {
    const { socket } = await openSocket(`?token=${TOKEN}`);
    const frame = nextFrame(socket);
    api.emit({ type: 'auth.changed' });
    expect(await frame).toEqual({ event: { type: 'auth.changed' } });
    socket.close();
    await new Promise((resolve) => socket.once('close', resolve));
  });

  it('answers a plain HTTP request to the socket path with 426', async () => {
    expect((await get('/api/ws')).status).toBe(426);
  });

  it("the renderer's WebSocket transport talks to it end to end", async () => {
    const transport = createWebSocketTransport(`ws://127.0.0.1:${port}/api/ws?token=${TOKEN}`, (url) => new WebSocket(url, { headers: { origin: `http://127.0.0.1:${port}` } }) as unknown as globalThis.WebSocket);
    const client = createApiClient(transport);
    const events: string[] = [];
    client.subscribe((event) => events.push(event.type));
    const board = await client.call('tasks.board', { roomId: 'github.com/acme/checkout-service' });
    expect(board.tasks.length).toBeGreaterThan(5);
    await expect(client.call('tasks.move', { roomId: 'github.com/acme/checkout-service', number: 18, to: 'done' })).rejects.toMatchObject({ code: 'T1', message: 'Invalid transition: proposed -> done. Allowed: accepted, cancelled' });
    await client.call('tasks.accept', { roomId: 'github.com/acme/checkout-service', number: 18 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toContain('task.changed');
    transport.close();
  });
});
