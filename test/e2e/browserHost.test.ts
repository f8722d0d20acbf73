// The browser host of a real `serve` refuses what is not the person's own page: no token,
// a foreign Host (DNS rebinding) or a cross-site Origin, over plain HTTP and from a real
// Chromium. The static page itself loads without a token by design (it carries no data;
// the token travels in the URL fragment and opens the WebSocket).
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
  token = new URLSearchParams(new URL(app.serve.uiUrl).hash.slice(1)).get('token')!;
  expect(token).toBeTruthy();
}, 60_000);

afterAll(async () => {
  await app?.close();
});

describe('the browser host over HTTP', () => {
  it('serves the page without a token, but not to a foreign Host or a cross-site Origin', async () => {
    const page = await probe(port, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect((await probe(port, { path: '/', headers: { Host: `evil.test:${port}` } })).status).toBe(421);
    expect((await probe(port, { path: '/', headers: { Origin: 'http://evil.test' } })).status).toBe(403);
  });

  it('upgrades the API socket only with the token, its own Host and its own Origin', async () => {
    const q = `/api/ws?token=${encodeURIComponent(token)}`;
    const own = { Origin: `http://127.0.0.1:${port}` };
    expect(await probeUpgrade(port, '/api/ws', own)).toBe(401);
    expect(await probeUpgrade(port, `/api/ws?token=${'A'.repeat(token.length)}`, own)).toBe(401);
    expect(await probeUpgrade(port, q, { ...own, Host: `rebind.test:${port}` })).toBe(421);
    expect(await probeUpgrade(port, q, { Origin: 'http://evil.test' })).toBe(403);
    expect(await probeUpgrade(port, q, { Origin: 'null' })).toBe(403);
    expect(await probeUpgrade(port, q, own)).toBe(101);
    expect((await probe(port, { path: '/api/ws' })).status).toBe(426);
  });

  it('answers API calls on an accepted socket and nothing on a refused one', async () => {
    const call = (url: string, headers: Record<string, string>) =>
      new Promise<unknown>((resolve) => {
        const socket = new WebSocket(url, { headers });
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
    expect(await call(`${base}?token=${encodeURIComponent(token)}`, { Origin: `http://127.0.0.1:${port}` })).toEqual({ ok: true, value: [] });
    expect(await call(base, { Origin: `http://127.0.0.1:${port}` })).toBe('refused 401');
    expect(await call(`${base}?token=${encodeURIComponent(token)}`, { Origin: 'http://evil.test' })).toBe('refused 403');
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
    expect((await post({ ...bearer, Host: `rebind.test:${port}` })).status).toBe(421);
    expect((await post({ ...bearer, Origin: 'http://evil.test' })).status).toBe(403);
    expect((await post(bearer)).status).toBe(200);
  });
});

describe('the browser host from a real Chromium', () => {
  it('shows how to open the app, and opens no socket, when the link has no token', async () => {
    const page = await app.browser.context.newPage();
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByRole('heading', { name: 'Open LetAgents from its link' }).waitFor();
    await page.waitForTimeout(300);
    expect(sockets).toEqual([]);
    await saveShot(page, 'browser-host-no-token');
    await page.close();
  });

  it('refuses a page reached through a rebinding name', async () => {
    const page = await app.browser.context.newPage();
    const answer = await page.goto(`http://rebind.test:${port}/#token=${encodeURIComponent(token)}`);
    expect(answer?.status()).toBe(421);
    expect(await page.locator('#root').count()).toBe(0);
    await page.close();
  });

  it('refuses another site that knows the token: its socket never opens, its /mcp call fails', async () => {
    const foreign = await servePage(`<!doctype html><title>Another site</title><script>
      window.result = new Promise((resolve) => {
        const out = { socket: 'pending', mcp: 'pending' };
        const ws = new WebSocket('ws://127.0.0.1:${port}/api/ws?token=${encodeURIComponent(token)}');
        ws.onopen = () => { out.socket = 'opened'; ws.send(JSON.stringify({ id: 1, method: 'rooms.list', input: {} })); };
        ws.onclose = () => { if (out.socket === 'pending') out.socket = 'refused'; done(); };
        fetch('http://127.0.0.1:${port}/mcp', { method: 'POST', headers: { Authorization: 'Bearer ${token}', 'Content-Type': 'application/json' }, body: '{}' })
          .then((r) => (out.mcp = 'answered ' + r.status), () => (out.mcp = 'failed'))
          .finally(done);
        let left = 2;
        function done() { if (--left === 0) resolve(out); }
      });
    </script>`);
    try {
      const page = await app.browser.context.newPage();
      await page.goto(`http://evil.test:${foreign.port}/`);
      expect(await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result)).toEqual({ socket: 'refused', mcp: 'failed' });
      await page.close();
    } finally {
      await foreign.close();
    }
    expect(app.problems).toEqual([]);
  });
});
