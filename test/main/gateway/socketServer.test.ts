import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { ensureAgentToken } from '../../../src/main/gateway/agentToken';
import { connectionIdSource } from '../../../src/main/gateway/connectionIds';
import { AppAlreadyRunningError, startAgentSocketServer, type AgentSocketServer } from '../../../src/main/gateway/socketServer';
import type { ApiCallHandler } from '../../../src/main/gateway/socketConnection';
import { agentSocketPath } from '../../../src/main/paths';
import { PING_LINE } from '../../../src/shared-node/protocol';
import { appProof, helperProof, newNonce } from '../../../src/shared-node/handshake';
import { cleanupSpawned, openRawSocket, recordingHandler, shakeHands, tempDataDir, track } from '../../support';

const servers: AgentSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await cleanupSpawned();
});

interface StartOptions {
  readonly timings?: { helloTimeoutMs?: number; silenceTimeoutMs?: number };
  readonly dataDir?: string;
  readonly uiLink?: () => string | null;
  readonly apiCall?: ApiCallHandler;
}

async function start({ timings, dataDir = tempDataDir(), uiLink, apiCall }: StartOptions = {}) {
  const token = ensureAgentToken(dataDir);
  const handler = recordingHandler();
  const server = await startAgentSocketServer({ dataDir, token, handler, nextConnectionId: connectionIdSource(), timings, uiLink, apiCall });
  servers.push(server);
  return { dataDir, token, handler, server };
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('agent socket', () => {
  it.skipIf(process.platform === 'win32')('is a 0600 socket in a 0700 data folder', async () => {
    const { dataDir, server } = await start();
    expect(server.path).toBe(agentSocketPath(dataDir));
    expect(statSync(server.path).isSocket()).toBe(true);
    expect(statSync(server.path).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('proves it knows the token without sending it, and closes a wrong proof without a welcome or an MCP server', async () => {
    const { server, token, handler } = await start();
    const raw = await openRawSocket(server.path);
    const nonce = newNonce();
    raw.send({ letagents_hello: 2, nonce, cwd: '/tmp', ide: null, pid: 1 });
    const challenge = JSON.parse(await raw.nextLine());
    expect(challenge).toEqual({ letagents_challenge: 1, proof: appProof(token, nonce), nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(raw.received()).not.toContain(token);
    // A proof made with another token (or the app's own proof sent back) is not the helper's.
    raw.send({ letagents_proof: 1, proof: helperProof('x'.repeat(43), challenge.nonce) });
    await raw.closed;
    expect(raw.received().trim().split('\n')).toHaveLength(1);
    expect(handler.opened).toEqual([]);

    const echo = await openRawSocket(server.path);
    const again = newNonce();
    echo.send({ letagents_hello: 2, nonce: again, cwd: null, ide: null, pid: 1 });
    const second = JSON.parse(await echo.nextLine());
    echo.send({ letagents_proof: 1, proof: appProof(token, second.nonce) });
    await echo.closed;
    expect(handler.opened).toEqual([]);
  });

  it('closes a version-1 hello that carries the token itself, without any reply', async () => {
    const { server, token, handler } = await start();
    const raw = await openRawSocket(server.path);
    raw.send({ letagents_hello: 1, token, cwd: '/tmp', ide: null, pid: 1 });
    await raw.closed;
    expect(raw.received()).toBe('');
    expect(handler.opened).toEqual([]);
  });

  it('closes a malformed hello without any reply', async () => {
    const { server, token, handler } = await start();
    const nonce = newNonce();
    const hellos = [
      'not json', JSON.stringify({ token }), JSON.stringify({ letagents_hello: 2, nonce, cwd: 5 }), JSON.stringify({ letagents_hello: 2, nonce: 'short' }),
      JSON.stringify({ letagents_hello: 2 }), JSON.stringify(initialize(1)),
      JSON.stringify({ letagents_hello: 2, nonce, tools: 'everything' }),
    ];
    for (const hello of hellos) {
      const raw = await openRawSocket(server.path);
      raw.send(hello);
      await raw.closed;
      expect(raw.received()).toBe('');
    }
    expect(handler.opened).toEqual([]);
  });

  it('closes a connection that sends no hello in time, without any reply', async () => {
    const { server } = await start({ timings: { helloTimeoutMs: 200 } });
    const raw = await openRawSocket(server.path);
    await raw.closed;
    expect(raw.received()).toBe('');
  });

  it('welcomes a good hello, reports its working directory and IDE, and then speaks MCP', async () => {
    const { server, token, handler } = await start();
    const raw = await openRawSocket(server.path);
    expect(await shakeHands(raw, token, { cwd: '/work/project', ide: 'cursor', pid: 42 })).toEqual({ letagents_welcome: 1, connection_id: 'c1' });
    expect(handler.opened).toEqual([{ id: 'c1', transport: 'socket', cwd: '/work/project', ideHint: 'cursor', toolProfile: 'full', turnKey: null, channelFlag: null, helperPid: 42 }]);
    raw.send(PING_LINE);
    raw.send(initialize(7));
    const reply = JSON.parse(await raw.nextLine());
    expect(reply.id).toBe(7);
    expect(reply.result.serverInfo.name).toBe('letagents-test-gateway');
    raw.socket.end();
    await handler.whenClosed('c1');
    expect(handler.closedIds).toEqual(['c1']);
  });

  it('answers a doctor probe and opens no MCP server', async () => {
    const { server, token, handler } = await start();
    const raw = await openRawSocket(server.path);
    expect(await shakeHands(raw, token, { probe: true })).toEqual({ letagents_welcome: 1, connection_id: null });
    await raw.closed;
    expect(handler.opened).toEqual([]);
  });

  it('gives a fresh one-time UI link only to a probe that asks for it, after the handshake (letagents-desktop open)', async () => {
    let minted = 0;
    const { server, token, handler } = await start({ uiLink: () => `http://127.0.0.1:1/#code=${++minted}` });
    const asking = await openRawSocket(server.path);
    expect(await shakeHands(asking, token, { probe: true, ui_link: true })).toEqual({ letagents_welcome: 1, connection_id: null, ui_url: 'http://127.0.0.1:1/#code=1' });
    expect(await shakeHands(await openRawSocket(server.path), token, { probe: true })).toEqual({ letagents_welcome: 1, connection_id: null });
    expect(await shakeHands(await openRawSocket(server.path), token, { ui_link: true })).toEqual({ letagents_welcome: 1, connection_id: 'c1' });
    // Without the right proof there is no link either.
    const stranger = await openRawSocket(server.path);
    stranger.send({ letagents_hello: 2, nonce: newNonce(), cwd: null, ide: null, pid: 1, probe: true, ui_link: true });
    const challenge = JSON.parse(await stranger.nextLine());
    stranger.send({ letagents_proof: 1, proof: helperProof('not-the-token-at-all-000000000000000000000', challenge.nonce) });
    await stranger.closed;
    expect(stranger.received()).not.toContain('#code=');
    expect(minted).toBe(1);
    expect(handler.opened).toHaveLength(1);
  });

  it('opens the MCP server with the tool profile the hello asks for', async () => {
    const { server, token, handler } = await start();
    expect(await shakeHands(await openRawSocket(server.path), token, { cwd: '/work/project', tools: 'core' })).toEqual({ letagents_welcome: 1, connection_id: 'c1' });
    expect(handler.opened).toEqual([{ id: 'c1', transport: 'socket', cwd: '/work/project', ideHint: null, toolProfile: 'core', turnKey: null, channelFlag: null, helperPid: 1 }]);
  });

  it('answers a command-line API call carried in a probe\'s proof, in the welcome, only after the proof checks out (letagents-desktop agent)', async () => {
    const calls: Array<{ method: string; input: unknown }> = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const apiCall: ApiCallHandler = async (method, input) => {
      calls.push({ method, input });
      if (method === 'agents.stop') await held;
      return { ok: true, value: { method } };
    };
    const { server, token, handler } = await start({ apiCall, uiLink: () => 'http://127.0.0.1:1/#code=1', timings: { helloTimeoutMs: 300 } });
    const api = { method: 'agents.list', input: { all: true } };
    expect(await shakeHands(await openRawSocket(server.path), token, { probe: true }, { api })).toEqual({
      letagents_welcome: 1, connection_id: null, api_result: { ok: true, value: { method: 'agents.list' } },
    });
    expect(calls).toEqual([api]);
    // A missing input is an empty one; a UI link and an API call can share one probe.
    expect(await shakeHands(await openRawSocket(server.path), token, { probe: true, ui_link: true }, { api: { method: 'agents.providers' } })).toEqual({
      letagents_welcome: 1, connection_id: null, ui_url: 'http://127.0.0.1:1/#code=1', api_result: { ok: true, value: { method: 'agents.providers' } },
    });
    expect(calls.at(-1)).toEqual({ method: 'agents.providers', input: {} });

    // A slow call (Stop waits for the agent's CLI to end) is answered when it is done, past the hello's time limit.
    const slow = await openRawSocket(server.path);
    const welcome = shakeHands(slow, token, { probe: true }, { api: { method: 'agents.stop', input: { agentId: 'a1' } } });
    await new Promise((r) => setTimeout(r, 600));
    expect(slow.received().trim().split('\n')).toHaveLength(1); // the challenge only
    expect(slow.socket.destroyed).toBe(false);
    release();
    expect((await welcome).api_result).toEqual({ ok: true, value: { method: 'agents.stop' } });
    expect(handler.opened).toEqual([]);
  });

  it('never runs an API call for a wrong proof, a non-probe hello or a malformed call, and closes without a welcome', async () => {
    const calls: string[] = [];
    const { server, token, handler } = await start({ apiCall: async (method) => (calls.push(method), { ok: true, value: null }) });
    // A proof made without the token carries its call nowhere.
    const stranger = await openRawSocket(server.path);
    stranger.send({ letagents_hello: 2, nonce: newNonce(), cwd: null, ide: null, pid: 1, probe: true });
    const challenge = JSON.parse(await stranger.nextLine());
    stranger.send({ letagents_proof: 1, proof: helperProof('not-the-token-at-all-000000000000000000000', challenge.nonce), api: { method: 'agents.remove', input: { agentId: 'a1' } } });
    await stranger.closed;
    expect(stranger.received().trim().split('\n')).toHaveLength(1);

    const refused = async (hello: Record<string, unknown>, api: unknown) => {
      const raw = await openRawSocket(server.path);
      // No welcome comes: the wait for it ends with its own time limit, after the test.
      void shakeHands(raw, token, hello, { api }).catch(() => undefined);
      await raw.closed;
      expect(raw.received().trim().split('\n'), JSON.stringify(api)).toHaveLength(1); // the challenge only
    };
    // An MCP connection's proof carries no API call.
    await refused({}, { method: 'agents.list', input: {} });
    // Malformed calls: no method, a method of another shape, extra fields, not an object.
    for (const api of [{ input: {} }, { method: 'agents list' }, { method: 'x'.repeat(50) }, { method: 'agents.list', token }, ['agents.list'], 'agents.list', null]) {
      await refused({ probe: true }, api);
    }
    expect(calls).toEqual([]);
    expect(handler.opened).toEqual([]);
  });

  it('refuses an API call where the app takes none, in the welcome', async () => {
    const { server, token } = await start();
    expect(await shakeHands(await openRawSocket(server.path), token, { probe: true }, { api: { method: 'agents.list', input: {} } })).toEqual({
      letagents_welcome: 1, connection_id: null, api_result: { ok: false, error: { code: 'not_available', message: 'This app takes no command-line calls.' } },
    });
  });

  it('keeps a connection that sends heartbeats and closes one that falls silent for two of them', async () => {
    // The server's silence timer and these pings share this process: held a while on a loaded
    // machine, the timer fires before the server reads the pings sent meanwhile. A 1 s silence
    // against 100 ms pings leaves 900 ms for that; 2.5 s of pings outlast two silences.
    const { server, token, handler } = await start({ timings: { silenceTimeoutMs: 1_000 } });
    const raw = await openRawSocket(server.path);
    await shakeHands(raw, token);
    const pinging = setInterval(() => raw.send(PING_LINE), 100);
    await new Promise((r) => setTimeout(r, 2_500));
    clearInterval(pinging);
    expect(raw.socket.destroyed).toBe(false);
    expect(handler.closedIds).toEqual([]);
    // The pings never reached MCP: the server still answers a first initialize normally.
    raw.send(initialize(1));
    expect(JSON.parse(await raw.nextLine()).result.serverInfo.name).toBe('letagents-test-gateway');
    await raw.closed;
    await handler.whenClosed('c1');
    expect(handler.closedIds).toEqual(['c1']);
  });

  it('closes every connection and removes the socket file when it stops', async () => {
    const { server, token, handler } = await start();
    const raw = await openRawSocket(server.path);
    await shakeHands(raw, token);
    await server.close();
    await raw.closed;
    await handler.whenClosed('c1');
    expect(handler.closedIds).toEqual(['c1']);
    expect(existsSync(server.path)).toBe(false);
  });

  it('refuses to start when another app already listens for the same data folder', async () => {
    const { dataDir, token } = await start();
    const second = startAgentSocketServer({ dataDir, token, handler: recordingHandler(), nextConnectionId: connectionIdSource() });
    await expect(second).rejects.toThrow(AppAlreadyRunningError);
    await expect(second).rejects.toThrow(`LetAgents is already running for this data folder (${dataDir}). Use that app, or quit it first.`);
    expect(existsSync(agentSocketPath(dataDir)!)).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('replaces a stale socket file left by an app that crashed', async () => {
    const dataDir = tempDataDir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const path = agentSocketPath(dataDir)!;
    const crashed = track(
      spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    await new Promise((r) => crashed.stdout!.once('data', r));
    crashed.kill('SIGKILL');
    await new Promise((r) => crashed.once('exit', r));
    expect(existsSync(path)).toBe(true);
    const { server, token } = await start({ dataDir });
    const raw = await openRawSocket(server.path);
    expect((await shakeHands(raw, token)).letagents_welcome).toBe(1);
    raw.socket.destroy();
  });
});
