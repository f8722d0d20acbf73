import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { ensureAgentToken } from '../../../src/main/gateway/agentToken';
import { connectionIdSource } from '../../../src/main/gateway/connectionIds';
import { AppAlreadyRunningError, startAgentSocketServer, type AgentSocketServer } from '../../../src/main/gateway/socketServer';
import { agentSocketPath } from '../../../src/main/paths';
import { PING_LINE } from '../../../src/cli/helper/protocol';
import { appProof, helperProof, newNonce } from '../../../src/cli/helper/handshake';
import { cleanupSpawned, openRawSocket, recordingHandler, shakeHands, tempDataDir, track } from '../../support';

const servers: AgentSocketServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await cleanupSpawned();
});

async function start(timings?: { helloTimeoutMs?: number; silenceTimeoutMs?: number }, dataDir = tempDataDir(), uiLink?: () => string | null) {
  const token = ensureAgentToken(dataDir);
  const handler = recordingHandler();
  const server = await startAgentSocketServer({ dataDir, token, handler, nextConnectionId: connectionIdSource(), timings, uiLink });
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
    const { server } = await start({ helloTimeoutMs: 200 });
    const raw = await openRawSocket(server.path);
    await raw.closed;
    expect(raw.received()).toBe('');
  });

  it('welcomes a good hello, reports its working directory and IDE, and then speaks MCP', async () => {
    const { server, token, handler } = await start();
    const raw = await openRawSocket(server.path);
    expect(await shakeHands(raw, token, { cwd: '/work/project', ide: 'cursor', pid: 42 })).toEqual({ letagents_welcome: 1, connection_id: 'c1' });
    expect(handler.opened).toEqual([{ id: 'c1', transport: 'socket', cwd: '/work/project', ideHint: 'cursor', toolProfile: 'full' }]);
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
    const { server, token, handler } = await start(undefined, tempDataDir(), () => `http://127.0.0.1:1/#code=${++minted}`);
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

  it('keeps a connection that sends heartbeats and closes one that falls silent for two of them', async () => {
    const { server, token, handler } = await start({ silenceTimeoutMs: 400 });
    const raw = await openRawSocket(server.path);
    await shakeHands(raw, token);
    const pinging = setInterval(() => raw.send(PING_LINE), 100);
    await new Promise((r) => setTimeout(r, 1_000));
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
    const { server, token } = await start(undefined, dataDir);
    const raw = await openRawSocket(server.path);
    expect((await shakeHands(raw, token)).letagents_welcome).toBe(1);
    raw.socket.destroy();
  });
});
