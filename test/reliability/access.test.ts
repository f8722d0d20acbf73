// Access (issue 9 §5, issue 15, architecture.md §5, data-model.md §7): the agent socket
// closes any connection whose handshake lacks the secret, without a welcome (and never asks
// for the token itself); /mcp refuses requests without the token, with a foreign Host (DNS
// rebinding) or a cross-site Origin; the browser host opens sessions only from fresh
// one-time codes and its socket only with that session, never with the agent token; the
// folder and its files are private; and after sign-in and use, the data folder holds no
// secret but agent-token (the GitHub token is in the keychain only, the UI secret in memory).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore, type MemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { appProof, helperProof, newNonce } from '../../src/shared-node/handshake';
import { cleanupSpawned, connectHelper, connectHttp, ensureCliBuilt, openRawSocket, shakeHands, tempDataDir, tempDir } from '../support';
import { startFakeGitHub, type FakeGitHub } from '../support/fakeGitHub';
import { INITIALIZE_BODY, MCP_POST_HEADERS, probe, probeUpgrade } from '../support/httpProbe';
import { mustCall, registerWorker } from './lib/mcpCalls';

let github: FakeGitHub;
let host: AppHost;
let secrets: MemorySecretStore;
let home: string;
let port: number;
let token: string;
const clients: Client[] = [];
const refused = { socket: 0, http: 0, browser: 0 };
const mode = (path: string) => statSync(path).mode & 0o777;

beforeAll(async () => {
  await ensureCliBuilt();
  github = await startFakeGitHub();
  const rendererDir = tempDir();
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>LetAgents</title><script src="/assets/app.js"></script>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("ui")');
  secrets = createMemorySecretStore();
  home = tempDir();
  const env = github.env();
  host = await startAppHost({ dataDir: tempDataDir(), secrets, env, home, rendererDir, port: 0, apiHost: { kind: 'browser', env } });
  port = host.gateway.http!.port;
  token = host.gateway.token;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await host?.close();
  await github?.close();
  await cleanupSpawned();
  console.info(
    `access: ${refused.socket} bad hellos on the agent socket, ${refused.http} /mcp requests and ${refused.browser} browser-host requests refused ` +
      `(${refused.socket + refused.http + refused.browser} in all); every positive control accepted`,
  );
});

describe('the agent socket', () => {
  it('is 0600 in a 0700 data folder, beside a 0600 agent-token', () => {
    const dataDir = host.app.core.dataDir;
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(host.gateway.socketPath)).toBe(0o600);
    expect(mode(join(dataDir, 'agent-token'))).toBe(0o600);
  });

  it('closes a connection whose handshake lacks the secret, without a welcome', async () => {
    const nonce = newNonce();
    const hello = (fields: Record<string, unknown>) => JSON.stringify({ letagents_hello: 2, nonce, cwd: null, ide: null, pid: 1, ...fields });
    const badFirstLines = [
      // Version 1 sent the token itself: refused even with the right one.
      JSON.stringify({ letagents_hello: 1, token, cwd: null, ide: null, pid: 1 }),
      hello({ nonce: '' }),
      hello({ nonce: 'short' }),
      hello({ nonce: [nonce] }),
      hello({ nonce: { value: nonce } }),
      hello({ letagents_hello: 3 }),
      hello({ cwd: 42 }),
      JSON.stringify({ token }),
      INITIALIZE_BODY,
      'GET / HTTP/1.1',
      `${token}`,
      '',
      'x'.repeat(70 * 1024),
    ];
    for (const line of badFirstLines) {
      const raw = await openRawSocket(host.gateway.socketPath);
      raw.send(line);
      await Promise.race([raw.closed, new Promise((_, reject) => setTimeout(() => reject(new Error(`not closed after ${line.slice(0, 60)}`)), 3_000))]);
      expect(raw.received(), line.slice(0, 60)).toBe('');
      refused.socket++;
    }
    // A good hello gets the app's challenge (never the token); any proof but the right one is closed without a welcome.
    const badProofs = [
      (challenge: { nonce: string }) => ({ letagents_proof: 1, proof: helperProof(token.slice(1), challenge.nonce) }),
      (challenge: { nonce: string }) => ({ letagents_proof: 1, proof: appProof(token, challenge.nonce) }),
      (challenge: { nonce: string; proof: string }) => ({ letagents_proof: 1, proof: challenge.proof }),
      () => ({ letagents_proof: 1, token }),
      () => ({ letagents_hello: 2, nonce, cwd: null, ide: null, pid: 1 }),
    ];
    for (const answer of badProofs) {
      const raw = await openRawSocket(host.gateway.socketPath);
      raw.send(hello({}));
      const challenge = JSON.parse(await raw.nextLine());
      expect(raw.received()).not.toContain(token);
      raw.send(answer(challenge));
      await Promise.race([raw.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('a bad proof was not closed')), 3_000))]);
      expect(raw.received().trim().split('\n')).toHaveLength(1);
      refused.socket++;
    }
    // Saying nothing at all is closed too, once the hello time (5 s) is up.
    const silent = await openRawSocket(host.gateway.socketPath);
    await Promise.race([silent.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('a silent connection stayed open')), 8_000))]);
    expect(silent.received()).toBe('');
    refused.socket++;

    // The positive control: the right proof is welcomed; garbage after it is dropped and the connection still answers.
    const good = await openRawSocket(host.gateway.socketPath);
    expect(await shakeHands(good, token)).toMatchObject({ letagents_welcome: 1 });
    good.send('not json at all');
    good.send('{"jsonrpc":"2.0","id":');
    good.send({ jsonrpc: '2.0', id: 7, method: 'no/such/method' });
    expect(JSON.parse(await good.nextLine())).toMatchObject({ id: 7, error: { code: -32601 } });
    good.socket.destroy();
  }, 30_000);
});

describe('HTTP /mcp', () => {
  const post = (headers: Record<string, string>, path = '/mcp') => probe(port, { method: 'POST', path, headers: { ...MCP_POST_HEADERS, ...headers }, body: INITIALIZE_BODY });

  it('refuses requests without the token, with a foreign Host or a cross-site Origin', async () => {
    const bearer = { Authorization: `Bearer ${token}` };
    const cases: Array<[string, Record<string, string>, number, string?]> = [
      ['no Authorization', {}, 401],
      ['a wrong token', { Authorization: `Bearer ${'A'.repeat(43)}` }, 401],
      ['the token with the wrong scheme', { Authorization: `Basic ${token}` }, 401],
      ['an empty bearer', { Authorization: 'Bearer ' }, 401],
      ['the token cut short', { Authorization: `Bearer ${token.slice(0, 20)}` }, 401],
      ['the token in the query instead', {}, 401, `/mcp?token=${token}`],
      ['a foreign Host', { ...bearer, Host: `evil.example:${port}` }, 421],
      ['a rebinding Host', { ...bearer, Host: `127.0.0.1.nip.io:${port}` }, 421],
      ['a look-alike Host', { ...bearer, Host: `localhost.evil.example:${port}` }, 421],
      ['the loopback on another port', { ...bearer, Host: `127.0.0.1:${port + 1}` }, 421],
      ['a cross-site Origin', { ...bearer, Origin: 'http://evil.example' }, 403],
      ['a null Origin', { ...bearer, Origin: 'null' }, 403],
      ['an https Origin of the loopback', { ...bearer, Origin: `https://127.0.0.1:${port}` }, 403],
      ['the loopback Origin on another port', { ...bearer, Origin: `http://127.0.0.1:${port + 1}` }, 403],
    ];
    for (const [what, headers, status, path] of cases) {
      const answer = await post(headers, path);
      expect(answer.status, what).toBe(status);
      expect(answer.headers['mcp-session-id'], what).toBeUndefined();
      refused.http++;
    }

    // With the token, a body too large or not JSON is refused too, and the app carries on.
    // (The app answers 413 and drops the upload; the client may see that answer or the dropped connection.)
    const huge = await probe(port, { method: 'POST', path: '/mcp', headers: { ...MCP_POST_HEADERS, ...bearer }, body: `{"x":"${'a'.repeat(5 * 1024 * 1024)}"}` }).then(
      (answer) => answer.status,
      () => 'connection dropped',
    );
    expect([413, 'connection dropped']).toContain(huge);
    expect((await probe(port, { method: 'POST', path: '/mcp', headers: { ...MCP_POST_HEADERS, ...bearer }, body: '{"jsonrpc":' })).status).toBe(400);
    refused.http += 2;

    // Positive controls: the token from the loopback (by IP or name) opens a session…
    const opened = await post(bearer);
    expect(opened.status).toBe(200);
    const sessionId = String(opened.headers['mcp-session-id']);
    expect((await post({ ...bearer, Host: `localhost:${port}`, Origin: `http://localhost:${port}` })).status).toBe(200);
    // …and knowing a session id is not enough without the token.
    for (const method of ['GET', 'DELETE', 'POST']) {
      const answer = await probe(port, { method, path: '/mcp', headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId }, body: method === 'POST' ? INITIALIZE_BODY : undefined });
      expect(answer.status, method).toBe(401);
      refused.http++;
    }
  });
});

/** A one-time code from a fresh UI link of the app. */
const newCode = () => new URLSearchParams(new URL(host.gateway.newUiUrl()!).hash.slice(1)).get('code')!;

const postSession = (body: string, headers: Record<string, string> = {}) =>
  probe(port, { method: 'POST', path: '/api/session', headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${port}`, ...headers }, body });

describe('the browser host', () => {
  it('serves its page only to its own Host and Origin, starts sessions only from fresh one-time codes, and opens its socket only with the session', async () => {
    expect((await probe(port, { path: '/' })).status).toBe(200);
    const pages: Array<[Record<string, string>, number]> = [
      [{ Host: `evil.example:${port}` }, 421],
      [{ Host: `127.0.0.1.nip.io:${port}` }, 421],
      [{ Origin: 'http://evil.example' }, 403],
      [{ Origin: 'null' }, 403],
    ];
    for (const [headers, status] of pages) {
      for (const path of ['/', '/index.html', '/assets/app.js', '/api/session']) {
        expect((await probe(port, { path, headers })).status, `${path} ${JSON.stringify(headers)}`).toBe(status);
        refused.browser++;
      }
    }

    // A link carries a one-time code, never the agent token; the token itself is no code.
    expect(host.gateway.newUiUrl()).not.toContain(token);
    const sessionCases: Array<[string, string, Record<string, string>, number]> = [
      ['the agent token as a code', JSON.stringify({ code: token }), {}, 401],
      ['a made-up code', JSON.stringify({ code: 'A'.repeat(32) }), {}, 401],
      ['no code', '{}', {}, 401],
      ['not JSON', 'code=x', {}, 401],
      ['a fresh code from another site', JSON.stringify({ code: newCode() }), { Origin: 'http://evil.example' }, 403],
      ['a fresh code through a rebinding name', JSON.stringify({ code: newCode() }), { Host: `127.0.0.1.nip.io:${port}` }, 421],
      ['a fresh code as a form post', JSON.stringify({ code: newCode() }), { 'Content-Type': 'application/x-www-form-urlencoded' }, 415],
    ];
    for (const [what, body, headers, status] of sessionCases) {
      const answer = await postSession(body, headers);
      expect(answer.status, what).toBe(status);
      expect(answer.headers['set-cookie'], what).toBeUndefined();
      refused.browser++;
    }

    // The positive control: a fresh code opens a session once; its cookie opens the socket.
    const code = newCode();
    const opened = await postSession(JSON.stringify({ code }));
    expect(opened.status).toBe(200);
    const cookie = String(opened.headers['set-cookie']).split(';')[0];
    const value = cookie.slice(cookie.indexOf('=') + 1);
    expect(value).not.toBe(token);
    // The page key comes in the answer's body only; the page's socket offers it as a subprotocol.
    const key = (JSON.parse(opened.body) as { key: string }).key;
    const withKey = { 'Sec-WebSocket-Protocol': `letagents, key.${key}` };
    const own = { Origin: `http://127.0.0.1:${port}` };
    const socketCases: Array<[string, string, Record<string, string>, number]> = [
      ['no session', '/api/ws', {}, 401],
      ['the agent token in the query (the old link)', `/api/ws?token=${encodeURIComponent(token)}`, {}, 401],
      ['the agent token as a bearer', '/api/ws', { Authorization: `Bearer ${token}` }, 401],
      ['the agent token as the cookie', '/api/ws', { Cookie: `letagents_ui_${port}=${token}` }, 401],
      ['the session under another port\'s name', '/api/ws', { Cookie: `letagents_ui_${port + 1}=${value}` }, 401],
      ['the session cut short', '/api/ws', { Cookie: `letagents_ui_${port}=${value.slice(1)}` }, 401],
      ['the session through a foreign Host', '/api/ws', { ...withKey, Cookie: cookie, Host: `evil.example:${port}` }, 421],
      ['the session from another site', '/api/ws', { ...withKey, Cookie: cookie, Origin: 'http://evil.example' }, 403],
      ['the session from the loopback on another port', '/api/ws', { ...withKey, Cookie: cookie, Origin: `http://127.0.0.1:${port + 1}` }, 403],
      // Cookies are not port-scoped: another listener on 127.0.0.1 receives this one (issue 24 item 6).
      ['the session cookie replayed with a forged Origin, without the page key', '/api/ws', { ...own, Cookie: cookie }, 401],
      ['the session cookie with a made-up page key', '/api/ws', { ...own, Cookie: cookie, 'Sec-WebSocket-Protocol': `letagents, key.${'k'.repeat(43)}` }, 401],
      ['the page key without the cookie', '/api/ws', { ...own, ...withKey }, 401],
    ];
    for (const [what, path, headers, status] of socketCases) {
      expect(await probeUpgrade(port, path, headers), what).toBe(status);
      refused.browser++;
    }
    expect(await probeUpgrade(port, '/api/ws', { ...own, ...withKey, Cookie: cookie })).toBe(101);

    // The same code again (someone raced the person to it): refused, and every session ends.
    const again = await postSession(JSON.stringify({ code }));
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body)).toMatchObject({ ok: false, reason: 'reused' });
    expect(await probeUpgrade(port, '/api/ws', { ...own, ...withKey, Cookie: cookie })).toBe(401);
    refused.browser += 2;
  });
});

/** Every regular file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

describe('secrets after sign-in and use', () => {
  it('keeps the GitHub token in the keychain and no secret but agent-token in the data folder', async () => {
    const http = await connectHttp(host.gateway.http!.mcpUrl, token);
    clients.push(http);
    github.nextDeviceCode = { interval: 1 };
    const started = await mustCall(http, 'start_device_auth', {});
    github.approve();
    await new Promise((r) => setTimeout(r, 1_100));
    const polled = await mustCall(http, 'poll_device_auth', { request_id: started.request_id });
    expect(polled.status).toBe('authorized');
    const githubToken = github.issuedTokens.at(-1)!;
    const deviceCode = github.requestsTo('/login/oauth/access_token')[0].form.device_code;

    // Use: a worker over HTTP and one through a real helper, messages, a task, an agent config.
    const registrationKey = 'access-test-registration-key-7f3a9c';
    await mustCall(http, 'join_room', { name: 'secret-scan' });
    const worker = await registerWorker(http, { room_id: 'secret-scan', registration_key: registrationKey, display_name: 'Keeper' });
    await mustCall(http, 'send_message', { worker_id: worker.workerId, text: 'signed in and working' });
    await mustCall(http, 'add_task', { worker_id: worker.workerId, title: 'Scan the folder' });
    const helper = await connectHelper(host.app.core.dataDir, { cwd: tempDir() });
    clients.push(helper);
    const second = await registerWorker(helper, { room_id: 'secret-scan', registration_key: `${registrationKey}-2` });
    await mustCall(helper, 'send_message', { worker_id: second.workerId, text: 'through the helper' });
    expect((await host.dispatch('setup.install', { tool: 'cursor' })).ok).toBe(true);
    const bindingTokens = [...(host.app.hub.bindings as unknown as { bindings: Map<string, { token: string }> }).bindings.values()].map((b) => b.token);
    expect(bindingTokens.length).toBeGreaterThanOrEqual(2);
    await host.app.core.store.drain();

    expect([...secrets.entries.values()]).toContain(githubToken);
    const session = await postSession(JSON.stringify({ code: newCode() }));
    const uiSecret = String(session.headers['set-cookie']).split(';')[0].split('=')[1];
    const secretsToFind: Array<[string, string]> = [
      ['the UI session secret', uiSecret],
      ['the GitHub token', githubToken],
      ['the device code', deviceCode],
      ['the registration key', registrationKey],
      ...bindingTokens.map((t, i): [string, string] => [`connection token ${i + 1}`, t]),
    ];
    const dataDir = host.app.core.dataDir;
    const found: string[] = [];
    for (const file of [...filesUnder(dataDir), ...filesUnder(home)]) {
      const bytes = readFileSync(file);
      for (const [what, secret] of secretsToFind) if (bytes.includes(secret)) found.push(`${what} in ${file}`);
      if (!file.endsWith('agent-token') && bytes.includes(token)) found.push(`the agent token in ${file}`);
      const githubLike = /gh[opusr]_[A-Za-z0-9]{16,}/.exec(bytes.toString('latin1'));
      if (githubLike) found.push(`a GitHub-style token ${githubLike[0].slice(0, 8)}… in ${file}`);
      if (file.startsWith(dataDir)) expect(mode(file) & 0o077, file).toBe(0);
    }
    expect(found).toEqual([]);
    expect(mode(join(dataDir, 'agent-token'))).toBe(0o600);
  }, 30_000);
});
