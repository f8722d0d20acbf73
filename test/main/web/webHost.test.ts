// The browser host: the built renderer over HTTP (strict CSP, no traversal, right content
// types), sessions from one-time codes (issue 15 items 1–2), and the WebSocket bridge behind
// the session cookie, Host and Origin checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { createDispatcher } from '../../../src/main/api/dispatcher';
import { createWebHost, type WebHost } from '../../../src/main/web/webHost';
import { CODE_TTL_MS, UiAccess } from '../../../src/main/web/uiAccess';
import { createApiClient } from '../../../src/renderer/src/api/client';
import { waitUntil } from '../../support/waitUntil';
import { createWebSocketTransport } from '../../../src/renderer/src/api/webSocketTransport';
import { createFakeApi, type FakeApi } from '../../renderer/support/fakeApi';
import { demoState } from '../../renderer/support/demoSeed';

const AGENT_TOKEN = 'a'.repeat(43);
let now = 1_000_000;
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
  host = createWebHost({ rendererDir: renderer, port, dispatch: createDispatcher(api.impl), subscribe: (listener) => api.subscribe(listener), access: new UiAccess(port, () => now) });
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

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function get(pathname: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** POSTs a code to the session path as the page does. */
const redeem = (code: string, headers: Record<string, string> = {}) =>
  get('/api/session', { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}`, ...headers }, 'POST', JSON.stringify({ code }));

const codeOf = (link: string) => /^\/#code=([A-Za-z0-9_-]+)$/.exec(link)![1];

/** What a page holds after trading a code: the session cookie ("name=value") and the page key. */
interface Session {
  cookie: string;
  key: string;
}

const sessionOf = (answer: { headers: Record<string, unknown>; body: string }): Session => ({
  cookie: String(answer.headers['set-cookie']).split(';')[0],
  key: (JSON.parse(answer.body) as { key: string }).key,
});

/** A session from a fresh link. */
async function newSession(): Promise<Session> {
  const answer = await redeem(codeOf(host.newUiLink()));
  expect(answer.status).toBe(200);
  return sessionOf(answer);
}

/** The page's session check: the cookie and the page key's header. */
const checkSession = (session: Partial<Session>) =>
  get('/api/session', { ...(session.cookie ? { cookie: session.cookie } : {}), ...(session.key ? { 'x-letagents-key': session.key } : {}) });

/** A socket as the page opens it: the cookie, and the page key offered as a subprotocol beside ours. */
function openSocket(session: Partial<Session> | null, headers: Record<string, string> = {}, query = ''): Promise<{ socket: WebSocket; status: number }> {
  return new Promise((resolve) => {
    const protocols = session?.key !== undefined ? ['letagents', `key.${session.key}`] : [];
    const cookie = session?.cookie;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws${query}`, protocols, { headers: { origin: `http://127.0.0.1:${port}`, ...(cookie ? { cookie } : {}), ...headers } });
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

describe('sessions from one-time links', () => {
  it('links carry a one-time code, never the agent token; a code opens a session cookie once', async () => {
    const link = host.newUiLink();
    expect(link).toMatch(/^\/#code=[A-Za-z0-9_-]{32}$/);
    expect(link).not.toContain(AGENT_TOKEN);
    expect(host.newUiLink()).not.toBe(link);
    const first = await redeem(codeOf(link));
    expect(first.status).toBe(200);
    const { key } = JSON.parse(first.body) as { key: string };
    expect(JSON.parse(first.body)).toEqual({ ok: true, key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^letagents_ui_${port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`));
    expect(cookie).not.toContain(AGENT_TOKEN);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(cookie).not.toContain(key);
    // The cookie and the page key are the session: a reload of the tab checks both and opens the socket with both.
    const session = { cookie: cookie.split(';')[0], key };
    expect(JSON.parse((await checkSession(session)).body)).toEqual({ ok: true });
    expect(JSON.parse((await checkSession({ cookie: session.cookie })).body)).toMatchObject({ ok: false, reason: 'no_session' });
    const { socket, status } = await openSocket(session);
    expect(status).toBe(101);
    expect(socket.protocol).toBe('letagents');
    socket.close();
  });

  it('refuses an unknown code and one past its minute, with the reason for the page', async () => {
    const unknown = await redeem('x'.repeat(32));
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.body)).toEqual({ ok: false, reason: 'used_or_expired', message: expect.stringContaining('letagents-desktop open') });
    const stale = codeOf(host.newUiLink());
    now += CODE_TTL_MS;
    expect(JSON.parse((await redeem(stale)).body)).toMatchObject({ ok: false, reason: 'used_or_expired' });
    expect(JSON.parse((await get('/api/session')).body)).toMatchObject({ ok: false, reason: 'no_session' });
  });

  it('a code used twice within its minute ends every session: whoever raced the person to it is shut out again', async () => {
    const code = codeOf(host.newUiLink());
    const thief = await redeem(code);
    const thiefSession = sessionOf(thief);
    const { socket } = await openSocket(thiefSession);
    const closed = new Promise<number>((resolve) => socket.once('close', (closeCode) => resolve(closeCode)));
    const person = await redeem(code);
    expect(person.status).toBe(401);
    expect(JSON.parse(person.body)).toMatchObject({ ok: false, reason: 'reused' });
    expect(await closed).toBe(1008);
    expect((await openSocket(thiefSession)).status).toBe(401);
    // Later (an old link from the history), a used code is just refused: no one else's session ends.
    const mine = await newSession();
    now += CODE_TTL_MS;
    expect(JSON.parse((await redeem(code)).body)).toMatchObject({ reason: 'used_or_expired' });
    expect(JSON.parse((await checkSession(mine)).body)).toEqual({ ok: true });
  });

  it('refuses a code from another site or a foreign Host, and leaves it unused', async () => {
    const code = codeOf(host.newUiLink());
    expect((await redeem(code, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await redeem(code, { host: `evil.example:${port}` })).status).toBe(421);
    expect((await redeem(code, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await redeem(code)).status).toBe(200);
  });

  it('keeps at most 32 unused codes (the oldest go first)', async () => {
    const oldest = codeOf(host.newUiLink());
    for (let i = 0; i < 32; i++) host.newUiLink();
    expect(JSON.parse((await redeem(oldest)).body)).toMatchObject({ reason: 'used_or_expired' });
  });
});

describe('WebSocket bridge', () => {
  it('refuses a socket without this run\'s session cookie, or from a foreign Host or a cross-site Origin', async () => {
    const session = await newSession();
    const { cookie, key } = session;
    const value = cookie.split('=')[1];
    expect((await openSocket(null)).status).toBe(401);
    expect((await openSocket(null, {}, `?token=${AGENT_TOKEN}`)).status).toBe(401);
    expect((await openSocket({ cookie: `letagents_ui_${port}=${'b'.repeat(43)}`, key })).status).toBe(401);
    // Another app's cookie (another port) is not this one's, even with the right value.
    expect((await openSocket({ cookie: `letagents_ui_${port + 1}=${value}`, key })).status).toBe(401);
    expect((await openSocket(session, { host: `evil.example:${port}` })).status).toBe(421);
    expect((await openSocket(session, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await openSocket(session, { origin: `http://localhost:${port + 1}` })).status).toBe(403);
    const accepted = await openSocket({ cookie: `other=1; ${cookie}`, key });
    expect(accepted.status).toBe(101);
    accepted.socket.close();
  });

  it('refuses the session cookie replayed without its page key (issue 24: any port of 127.0.0.1 receives the cookie)', async () => {
    const { cookie, key } = await newSession();
    // A listener on another port got the cookie; it forges our Origin and Host, but has no page key.
    expect((await openSocket({ cookie })).status).toBe(401);
    expect((await openSocket({ cookie, key: '' })).status).toBe(401);
    expect((await openSocket({ cookie, key: 'b'.repeat(43) })).status).toBe(401);
    expect((await openSocket({ cookie }, { 'sec-websocket-protocol': `letagents, key.${key.slice(1)}` })).status).toBe(401);
    // The key alone is not a session either.
    expect((await openSocket({ key })).status).toBe(401);
    // Nor does the session check hand the key to whoever has the cookie.
    const check = await checkSession({ cookie });
    expect(JSON.parse(check.body)).toMatchObject({ ok: false, reason: 'no_session' });
    expect(check.body).not.toContain(key);
  });

  it('answers a call with the same result as the dispatcher, by id', async () => {
    const { socket, status } = await openSocket(await newSession());
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
    const { socket } = await openSocket(await newSession());
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
    const { cookie, key } = await newSession();
    const transport = createWebSocketTransport(`ws://127.0.0.1:${port}/api/ws`, (url) => new WebSocket(url, ['letagents', `key.${key}`], { headers: { origin: `http://127.0.0.1:${port}`, cookie } }) as unknown as globalThis.WebSocket);
    const client = createApiClient(transport);
    const events: string[] = [];
    client.subscribe((event) => events.push(event.type));
    const board = await client.call('tasks.board', { roomId: 'github.com/acme/checkout-service' });
    expect(board.tasks.length).toBeGreaterThan(5);
    await expect(client.call('tasks.move', { roomId: 'github.com/acme/checkout-service', number: 18, to: 'done' })).rejects.toMatchObject({ code: 'T1', message: 'Invalid transition: proposed -> done. Allowed: accepted, cancelled' });
    await client.call('tasks.accept', { roomId: 'github.com/acme/checkout-service', number: 18 });
    await waitUntil(() => events.includes('task.changed'), 5_000, 'the task.changed event');
    transport.close();
  });
});
