// The browser host of a real `serve` refuses what is not the person's own page: no session,
// a foreign Host (DNS rebinding) or a cross-site Origin, over plain HTTP and from a real
// Chromium. The static page itself loads without a session by design (it carries no data);
// links carry a one-time code the page trades for an HttpOnly session cookie (issue 15
// items 1–2) and a page key (issue 24 item 6: the cookie reaches every port of 127.0.0.1,
// so alone it opens nothing), and the agent token never opens the UI socket.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openApp, type AppSession } from './lib/app';
import { probe, probeUpgrade } from '../support/httpProbe';
import { servePage } from './lib/http';
import { saveShot } from './lib/shots';

let app: AppSession;
let port: number;
let token: string;

beforeAll(async () => {
  // Two names that resolve to 127.0.0.1 in this browser only: a foreign site, and a rebinding one.
  app = await openApp({ chromiumArgs: ['--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1'] });
  port = app.serve.port;
  token = app.serve.token;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const codeOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('code')!;

/** The page key as the page's socket offers it (a subprotocol beside ours). */
const keyProtocol = (key: string) => ({ 'Sec-WebSocket-Protocol': `letagents, key.${key}` });

/** A session cookie ("name=value") and page key for a fresh one-time code, as the page gets them. */
async function newSession(): Promise<{ cookie: string; key: string }> {
  const answer = await probe(port, {
    method: 'POST',
    path: '/api/session',
    headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ code: codeOf(await app.serve.newUiUrl()) }),
  });
  expect(answer.status).toBe(200);
  return { cookie: String(answer.headers['set-cookie']).split(';')[0], key: (JSON.parse(answer.body) as { key: string }).key };
}

describe('the browser host over HTTP', () => {
  it('serves the page without a session, but not to a foreign Host or a cross-site Origin', async () => {
    const page = await probe(port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await probe(port, { path: '/', headers: { Host: `evil.test:${port}` } })).status).toBe(421);
    expect((await probe(port, { path: '/', headers: { Origin: 'http://evil.test' } })).status).toBe(403);
  });

  it('upgrades the API socket only with the session cookie and page key, its own Host and its own Origin; never with the agent token', async () => {
    const { cookie, key } = await newSession();
    const own = { Origin: `http://127.0.0.1:${port}`, ...keyProtocol(key) };
    expect(await probeUpgrade(port, '/api/ws', own)).toBe(401);
    expect(await probeUpgrade(port, `/api/ws?token=${encodeURIComponent(token)}`, own)).toBe(401);
    expect(await probeUpgrade(port, '/api/ws', { ...own, Authorization: `Bearer ${token}` })).toBe(401);
    expect(await probeUpgrade(port, '/api/ws', { ...own, Cookie: `letagents_ui_${port}=${token}` })).toBe(401);
    expect(await probeUpgrade(port, '/api/ws', { ...own, Cookie: cookie, Host: `rebind.test:${port}` })).toBe(421);
    expect(await probeUpgrade(port, '/api/ws', { ...keyProtocol(key), Cookie: cookie, Origin: 'http://evil.test' })).toBe(403);
    expect(await probeUpgrade(port, '/api/ws', { ...keyProtocol(key), Cookie: cookie, Origin: 'null' })).toBe(403);
    expect(await probeUpgrade(port, '/api/ws', { Origin: own.Origin, Cookie: cookie })).toBe(401);
    expect(await probeUpgrade(port, '/api/ws', { ...own, Cookie: cookie })).toBe(101);
    expect((await probe(port, { path: '/api/ws' })).status).toBe(426);
  });

  it('answers API calls on an accepted socket and nothing on a refused one', async () => {
    const { cookie, key } = await newSession();
    const call = (url: string, headers: Record<string, string>, protocols = ['letagents', `key.${key}`]) =>
      new Promise<unknown>((resolve) => {
        const socket = new WebSocket(url, protocols, { headers });
        socket.on('open', () => socket.send(JSON.stringify({ id: 1, method: 'rooms.list', input: {} })));
        socket.on('message', (data) => {
          const frame = JSON.parse(String(data));
          if (frame.id !== 1) return;
          socket.close();
          resolve(frame.result);
        });
        socket.on('unexpected-response', (_req, res) => resolve(`refused ${res.statusCode}`));
        socket.on('error', (error) => resolve(`error ${error.message}`));
      });
    const base = `ws://127.0.0.1:${port}/api/ws`;
    expect(await call(base, { Origin: `http://127.0.0.1:${port}`, Cookie: cookie })).toEqual({ ok: true, value: [] });
    expect(await call(base, { Origin: `http://127.0.0.1:${port}` })).toBe('refused 401');
    expect(await call(base, { Origin: `http://127.0.0.1:${port}`, Cookie: cookie }, [])).toBe('refused 401');
    expect(await call(base, { Origin: 'http://evil.test', Cookie: cookie })).toBe('refused 403');
  });

  it('refuses /mcp without the token, with a foreign Host or a cross-site Origin', async () => {
    const post = (headers: Record<string, string>) =>
      probe(port, {
        method: 'POST',
        path: '/mcp',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }),
      });
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await post({})).status).toBe(401);
    expect((await post({ Cookie: (await newSession()).cookie })).status).toBe(401);
    expect((await post({ ...bearer, Host: `rebind.test:${port}` })).status).toBe(421);
    expect((await post({ ...bearer, Origin: 'http://evil.test' })).status).toBe(403);
    expect((await post(bearer)).status).toBe(200);
  });
});

describe('the browser host from a real Chromium', () => {
  it('keeps the cookie where page scripts cannot read it, only the page key in this origin\'s storage, and no secret in the address bar', async () => {
    const cookies = await app.browser.context.cookies(`http://127.0.0.1:${port}`);
    expect(cookies).toEqual([expect.objectContaining({ name: `letagents_ui_${port}`, httpOnly: true, sameSite: 'Strict', path: '/', expires: -1 })]);
    expect(cookies[0].value).not.toBe(token);
    expect(app.page.url()).toBe(`http://127.0.0.1:${port}/`);
    const visible = await app.page.evaluate(() => ({ cookie: document.cookie, local: Object.keys(localStorage), session: sessionStorage.length, key: localStorage.getItem('letagents-ui-key') }));
    expect(visible).toMatchObject({ cookie: '', local: ['letagents-ui-key'], session: 0, key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect([token, cookies[0].value]).not.toContain(visible.key);
    // A reload of the tab keeps working within this run.
    await app.page.reload();
    await app.page.getByRole('navigation', { name: 'LetAgents' }).waitFor();
  });

  it('shows how to open the app, and opens no socket, when the link has no code', async () => {
    // A browser without this run's session cookie (the app's own tab keeps its open socket).
    await app.browser.context.clearCookies();
    const page = await app.browser.context.newPage();
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByRole('heading', { name: 'Open LetAgents from its link' }).waitFor();
    await page.getByText('letagents-desktop open').first().waitFor();
    await page.waitForTimeout(300); // a bounded moment for a socket the page must not open
    expect(sockets).toEqual([]);
    await saveShot(page, 'browser-host-no-link');
    await page.close();
    await app.open();
  });

  it('an unknown or used code opens nothing; a code raced for within its minute ends every session', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(`http://127.0.0.1:${port}/#code=${'x'.repeat(32)}`);
    await page.getByRole('heading', { name: 'This link was already used or has expired' }).waitFor();
    expect(page.url()).toBe(`http://127.0.0.1:${port}/`);

    // Someone else redeems the person's link first; when the person's tab uses it, both are shut out.
    const link = await app.serve.newUiUrl();
    const thief = await probe(port, { method: 'POST', path: '/api/session', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: codeOf(link) }) });
    const thiefCookie = String(thief.headers['set-cookie']).split(';')[0];
    const thiefKey = keyProtocol((JSON.parse(thief.body) as { key: string }).key);
    expect(await probeUpgrade(port, '/api/ws', { ...thiefKey, Cookie: thiefCookie })).toBe(101);
    await page.goto('about:blank');
    await page.goto(link);
    await page.getByRole('heading', { name: 'This link had just been used' }).waitFor();
    expect(await probeUpgrade(port, '/api/ws', { ...thiefKey, Cookie: thiefCookie })).toBe(401);
    // The person's open tab was shut out too, and says how to get back in.
    await app.page.getByRole('status').filter({ hasText: "LetAgents ended this tab's session to be safe: a link was used twice. Open it again with letagents-desktop open" }).waitFor({ timeout: 15_000 });
    await saveShot(page, 'browser-host-link-reused');
    await page.close();
    // Its refused reconnects (and the check of why, answered 401) are the only complaints on the page.
    expect(app.problems.filter((p) => !/WebSocket connection to .* failed: HTTP Authentication failed|Failed to load resource: .* 401/.test(p))).toEqual([]);
    app.problems.length = 0;
    // The person opens the app again and carries on.
    await app.open();
  });

  it('refuses a page reached through a rebinding name', async () => {
    const page = await app.browser.context.newPage();
    const answer = await page.goto(`http://rebind.test:${port}/#code=${codeOf(await app.serve.newUiUrl())}`);
    expect(answer?.status()).toBe(421);
    expect(await page.locator('#root').count()).toBe(0);
    await page.close();
  });

  it('refuses another site that knows the token or a fresh code: no socket, no session, no /mcp call', async () => {
    const code = codeOf(await app.serve.newUiUrl());
    const foreign = await servePage(`<!doctype html><title>Another site</title><script>
      window.result = new Promise((resolve) => {
        const out = { socket: 'pending', session: 'pending', mcp: 'pending' };
        const ws = new WebSocket('ws://127.0.0.1:${port}/api/ws?token=${encodeURIComponent(token)}');
        ws.onopen = () => { out.socket = 'opened'; ws.send(JSON.stringify({ id: 1, method: 'rooms.list', input: {} })); };
        ws.onclose = () => { if (out.socket === 'pending') out.socket = 'refused'; done(); };
        fetch('http://127.0.0.1:${port}/api/session', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: '${code}' }) })
          .then((r) => (out.session = 'answered ' + r.status), () => (out.session = 'failed'))
          .finally(done);
        fetch('http://127.0.0.1:${port}/mcp', { method: 'POST', headers: { Authorization: 'Bearer ${token}', 'Content-Type': 'application/json' }, body: '{}' })
          .then((r) => (out.mcp = 'answered ' + r.status), () => (out.mcp = 'failed'))
          .finally(done);
        let left = 3;
        function done() { if (--left === 0) resolve(out); }
      });
    </script>`);
    try {
      const page = await app.browser.context.newPage();
      await page.goto(`http://evil.test:${foreign.port}/`);
      expect(await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result)).toEqual({ socket: 'refused', session: 'failed', mcp: 'failed' });
      await page.close();
    } finally {
      await foreign.close();
    }
    // The code the other site tried is still the person's to use.
    const own = await probe(port, { method: 'POST', path: '/api/session', headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${port}` }, body: JSON.stringify({ code }) });
    expect(own.status).toBe(200);
    expect(app.problems).toEqual([]);
  });

  it('another listener on 127.0.0.1 receives the session cookie from the browser, but replayed with a forged Origin it opens no socket; the page keeps working', async () => {
    const seen: string[] = [];
    const listener = createServer((req, res) => {
      seen.push(String(req.headers.cookie ?? ''));
      res.end('another program on this computer');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const page = await app.browser.context.newPage();
      await page.goto(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/`);
      await page.close();
    } finally {
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      });
    }
    // Cookies are not port-scoped: the browser handed ours over.
    const stolen = seen.join('; ').split(';').map((p) => p.trim()).find((p) => p.startsWith(`letagents_ui_${port}=`));
    expect(stolen).toBeDefined();
    const forged = { Origin: `http://127.0.0.1:${port}`, Host: `127.0.0.1:${port}`, Cookie: stolen! };
    expect(await probeUpgrade(port, '/api/ws', forged)).toBe(401);
    expect(await probeUpgrade(port, '/api/ws', { ...forged, 'Sec-WebSocket-Protocol': 'letagents' })).toBe(401);
    const check = await probe(port, { path: '/api/session', headers: forged });
    expect(JSON.parse(check.body)).toMatchObject({ ok: false, reason: 'no_session' });
    // The person's own tab still works: a reload finds its session, and a call is answered.
    await app.page.reload();
    await app.page.getByRole('navigation', { name: 'LetAgents' }).waitFor();
    expect(await app.page.evaluate(() => fetch('/api/session', { headers: { 'x-letagents-key': localStorage.getItem('letagents-ui-key') ?? '' } }).then((r) => r.json()))).toEqual({ ok: true });
  });
});
