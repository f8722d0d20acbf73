import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startGateway, type Gateway } from '../../src/main/gateway';
import { LOST_REQUEST_MESSAGE } from '../../src/cli/helper/relay';
import {
  cleanupSpawned,
  cliBin,
  connectHelper,
  ensureCliBuilt,
  isAlive,
  recordingHandler,
  runCli,
  startServe,
  startServeAgain,
  tempDataDir,
  tempDir,
  toolJson,
  toolText,
  track,
  waitUntil,
  type RecordingHandler,
} from '../support';

beforeAll(ensureCliBuilt);
const gateways: Gateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.close()));
  await cleanupSpawned();
});

/** The app's gateway in this process, with a recording MCP handler (socket only). */
async function inProcessApp(dataDir: string, handler: RecordingHandler = recordingHandler()) {
  const gateway = await startGateway({ dataDir, handler, http: false });
  gateways.push(gateway);
  return { gateway, handler };
}


// Each test runs a real app and helper (several restart them): on a loaded 2-core machine a
// restart case took 23 s of the default 30, so they get 90 s.
describe('letagents-desktop mcp (stdio helper)', { timeout: 90_000 }, () => {
  it('connects an agent to the running app: initialize, tools/list and a tool call', async () => {
    const serve = await startServe();
    const client = await connectHelper(serve.dataDir);
    expect(client.getServerVersion()?.name).toBe('letagents-desktop');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_current_room');
    const result = await client.callTool({ name: 'get_current_room', arguments: {} });
    expect(toolJson(result)).toEqual({ connected: false, message: 'Not currently in any room' });
    await client.close();
    await serve.stop();
  });

  it("tells the app the agent's working directory, IDE, tool profile and whether the agent carries Claude Code's channel flag", async () => {
    const dataDir = tempDataDir();
    const { handler } = await inProcessApp(dataDir);
    const cwd = realpathSync(tempDir('la-project-'));
    const flagged = await connectHelper(dataDir, { cwd, ide: 'cursor' });
    const fromEnv = await connectHelper(dataDir, { cwd, env: { LETAGENTS_AGENT_IDE: 'windsurf' } });
    const plain = await connectHelper(dataDir, { cwd, env: { LETAGENTS_AGENT_IDE: '' } });
    const core = await connectHelper(dataDir, { cwd, tools: 'core' });
    const channel = await connectHelper(dataDir, { cwd, agentFlags: ['--dangerously-load-development-channels', 'server:letagents'] });
    const pluginChannel = await connectHelper(dataDir, { cwd, agentFlags: ['--channels=plugin:letagents@market'] });
    // Linux: the helper reads its ancestors' command lines in /proc (the test runner carries no channel flag).
    expect(handler.opened).toEqual([
      { id: 'c1', transport: 'socket', cwd, ideHint: 'cursor', toolProfile: 'full', channelFlag: false, turnKey: null, helperPid: expect.any(Number) },
      { id: 'c2', transport: 'socket', cwd, ideHint: 'windsurf', toolProfile: 'full', channelFlag: false, turnKey: null, helperPid: expect.any(Number) },
      { id: 'c3', transport: 'socket', cwd, ideHint: null, toolProfile: 'full', channelFlag: false, turnKey: null, helperPid: expect.any(Number) },
      { id: 'c4', transport: 'socket', cwd, ideHint: null, toolProfile: 'core', channelFlag: false, turnKey: null, helperPid: expect.any(Number) },
      { id: 'c5', transport: 'socket', cwd, ideHint: null, toolProfile: 'full', channelFlag: true, turnKey: null, helperPid: expect.any(Number) },
      { id: 'c6', transport: 'socket', cwd, ideHint: null, toolProfile: 'full', channelFlag: true, turnKey: null, helperPid: expect.any(Number) },
    ]);
    await Promise.all([flagged.close(), fromEnv.close(), plain.close(), core.close(), channel.close(), pluginChannel.close()]);
    await handler.whenClosed('c3');
  });

  it('starts the app in the background when none is running', async () => {
    const dataDir = tempDataDir();
    const client = await connectHelper(dataDir);
    expect(client.stderrText).toContain('started the LetAgents app in the background');
    const appPid = client.startedAppPid!;
    expect(isAlive(appPid)).toBe(true);
    expect(existsSync(join(dataDir, 'agent.sock'))).toBe(true);
    expect(readFileSync(join(dataDir, 'app-background.log'), 'utf8')).toContain('LetAgents is running for');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('get_current_room');
    await client.close();
    // The app outlives the helper that started it.
    expect(isAlive(appPid)).toBe(true);
  });

  it("starts the app in the home folder, not in the agent's folder whose PWD it would hand to every agent CLI (issue 32 item 1)", async () => {
    const dataDir = tempDataDir();
    const agentFolder = realpathSync(tempDir('la-agent-folder-'));
    const home = realpathSync(tempDir('la-home-'));
    const client = await connectHelper(dataDir, { cwd: agentFolder, env: { HOME: home, PWD: agentFolder } });
    const appPid = client.startedAppPid!;
    // Linux: what the started app runs in and what its PWD says.
    expect(readlinkSync(`/proc/${appPid}/cwd`)).toBe(home);
    const environ = readFileSync(`/proc/${appPid}/environ`, 'utf8').split('\0');
    expect(environ).toContain(`PWD=${home}`);
    await client.close();
  });

  it('keeps the agent connected across an app restart', async () => {
    const serve = await startServe();
    const client = await connectHelper(serve.dataDir);
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.callTool({ name: 'get_current_room', arguments: {} });
    await serve.kill();
    const restarted = await startServeAgain(serve.dataDir, [client]);
    // Calls in the gap are told the app is away; once the helper is back they work.
    await waitUntil(async () => (await client.callTool({ name: 'get_current_room', arguments: {} }).catch(() => null)) !== null, 15_000, 'calls to work again');
    const result = await client.callTool({ name: 'get_current_room', arguments: {} });
    expect((toolJson(result) as { message: string }).message).toBe('Not currently in any room');
    expect(errors).toEqual([]);
    await client.close();
    await restarted.stop();
  });

  it('re-initializes the new connection after a restart without the agent seeing it', async () => {
    const dataDir = tempDataDir();
    const first = await inProcessApp(dataDir);
    const client = await connectHelper(dataDir, { clientName: 'agent-under-test' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    expect(toolText(await client.callTool({ name: 'echo', arguments: { text: 'a' } }))).toBe('c1:a');
    await first.gateway.close();
    const second = await inProcessApp(dataDir);
    // Call once the helper is back (a call in the instant the app dies is answered with an error).
    await waitUntil(() => second.handler.opened.length === 1, 10_000, 'helper reconnected');
    expect(toolText(await client.callTool({ name: 'echo', arguments: { text: 'b' } }))).toBe('c1:b');
    // The new server saw the agent's own initialize (same client name) before the call.
    expect(second.handler.servers[0].server.getClientVersion()?.name).toBe('agent-under-test');
    expect(errors).toEqual([]);
    await client.close();
  });

  it('answers requests in flight when the app goes away with an error, then carries on', async () => {
    const dataDir = tempDataDir();
    const first = await inProcessApp(dataDir);
    const client = await connectHelper(dataDir);
    const hanging = client.callTool({ name: 'hang', arguments: {} }, undefined, { timeout: 20_000 });
    await waitUntil(() => first.handler.hungIds.length === 1, 10_000, 'the call to reach the app');
    await first.gateway.close();
    await expect(hanging).rejects.toThrow(LOST_REQUEST_MESSAGE);
    const second = await inProcessApp(dataDir);
    await waitUntil(() => second.handler.opened.length === 1, 10_000, 'helper reconnected');
    expect(toolText(await client.callTool({ name: 'echo', arguments: { text: 'again' } }))).toBe('c1:again');
    await client.close();
  });

  it('answers calls at once while the app is away, saying it will reconnect, and carries on when it is back', async () => {
    const dataDir = tempDataDir();
    const first = await inProcessApp(dataDir);
    const client = await connectHelper(dataDir);
    expect(toolText(await client.callTool({ name: 'echo', arguments: { text: 'a' } }))).toBe('c1:a');
    await first.gateway.close();
    // A clean stop: the helper waits for the app (it does not start one), and says so at once.
    const away = () => client.callTool({ name: 'echo', arguments: { text: 'b' } }).then(() => '', (error: Error) => error.message);
    await waitUntil(async () => (await away()).includes('not running'), 15_000, 'the helper to notice');
    expect(await away()).toContain('LetAgents is not running (it was stopped); it will reconnect by itself once the app runs again');
    // The helper itself still answers a ping.
    await expect(client.ping()).resolves.toEqual({});
    const second = await inProcessApp(dataDir);
    await waitUntil(() => second.handler.opened.length === 1, 10_000, 'helper reconnected');
    await waitUntil(async () => (await client.callTool({ name: 'echo', arguments: { text: 'c' } }).catch(() => null)) !== null, 15_000, 'calls to work again');
    expect(toolText(await client.callTool({ name: 'echo', arguments: { text: 'd' } }))).toBe('c1:d');
    await client.close();
  });

  it('while the app is stopped, wait_for_messages waits (a "keep waiting" loop makes a handful of calls, not hundreds); a wait made then is answered by a message sent once the app is back (issue 35 item 2)', async () => {
    const serve = await startServe();
    const client = await connectHelper(serve.dataDir);
    const room = toolJson(await client.callTool({ name: 'create_room', arguments: {} })) as { room_id: string };
    const juniper = toolJson(await client.callTool({
      name: 'register_agent_session',
      arguments: { room_id: room.room_id, registration_key: 'juniper-registration-key-0123456789', display_name: 'Juniper' },
    })) as { worker_id: string };
    const wait = (timeout: number, after?: string | null) =>
      client.callTool({ name: 'wait_for_messages', arguments: { room_id: room.room_id, worker_id: juniper.worker_id, timeout, ...(after ? { after_message_id: after } : {}) } }, undefined, { timeout: 120_000 });
    const first = toolJson(await wait(1_000)) as { last_observed_message_id: string | null };
    await serve.stop();
    await waitUntil(async () => String(await client.callTool({ name: 'get_current_room', arguments: {} }).catch((e: Error) => e.message)).includes('not running'), 10_000, 'the helper to notice');

    // An agent told to keep waiting, for a bounded window: each call now waits its second out.
    let calls = 0;
    const results: Array<Record<string, unknown>> = [];
    const windowEnds = Date.now() + 3_000;
    while (Date.now() < windowEnds) {
      calls += 1;
      results.push(toolJson(await wait(1_000, first.last_observed_message_id)) as Record<string, unknown>);
    }
    expect(calls).toBeLessThanOrEqual(4);
    for (const r of results) {
      expect(r).toMatchObject({ room_id: room.room_id, messages: [], last_observed_message_id: first.last_observed_message_id });
      expect(r.app_away).toMatch(/^LetAgents is not running \(stopped by SIGTERM\); it will reconnect by itself/);
    }

    // A long wait made while the app is away is sent to it once it is back, and answered by a message sent then.
    const waiting = wait(60_000, first.last_observed_message_id);
    const restarted = await startServe({ dataDir: serve.dataDir });
    const birch = await connectHelper(serve.dataDir);
    await birch.callTool({ name: 'join_room', arguments: { room_id: room.room_id } });
    const birchWorker = toolJson(await birch.callTool({
      name: 'register_agent_session',
      arguments: { room_id: room.room_id, registration_key: 'birch-registration-key-0123456789ab', display_name: 'Birch' },
    })) as { worker_id: string };
    await birch.callTool({ name: 'send_message', arguments: { room_id: room.room_id, worker_id: birchWorker.worker_id, text: '@Juniper the app is back' } });
    const woke = toolJson(await waiting) as { messages: Array<{ text: string }>; app_away?: string };
    expect(woke.messages.map((m) => m.text)).toEqual(['@Juniper the app is back']);
    expect(woke.app_away).toBeUndefined();
    await birch.close();
    await client.close();
    await restarted.stop();
  });

  it("binds the agent's worker again after an app restart, so its next call works without registering", async () => {
    const serve = await startServe();
    const client = await connectHelper(serve.dataDir);
    const room = toolJson(await client.callTool({ name: 'join_room', arguments: { name: 'restart-room' } })) as { room_id: string };
    const registered = toolJson(await client.callTool({
      name: 'register_agent_session',
      arguments: { room_id: room.room_id, registration_key: 'a-fresh-registration-key-0123456789', display_name: 'Juniper' },
    })) as { worker_id: string };
    await serve.kill(); // a crash
    const restarted = await startServeAgain(serve.dataDir, [client]);
    const send = () => client.callTool({ name: 'send_message', arguments: { room_id: room.room_id, worker_id: registered.worker_id, text: 'still here' } });
    // Once the helper is back (calls meanwhile are told the app is away), the same worker_id works: no W12.
    await waitUntil(async () => !String(await send().then((r) => toolText(r), (e: Error) => e.message)).includes('not running'), 15_000, 'the helper to be back');
    const sent = await send();
    expect(sent.isError).toBeFalsy();
    expect(toolJson(sent)).toMatchObject({ room_id: room.room_id, text: 'still here' });
    await client.close();
    await restarted.stop();
  });

  it('starts the app again after a crash when nothing else does', async () => {
    const serve = await startServe();
    const client = await connectHelper(serve.dataDir);
    await client.callTool({ name: 'get_current_room', arguments: {} });
    await serve.kill();
    await waitUntil(() => client.startedAppPids.length === 1, 20_000, 'the helper to start the app again');
    expect(client.stderrText).toContain('the LetAgents app went away; started it again in the background');
    await waitUntil(async () => (await client.callTool({ name: 'get_current_room', arguments: {} }).catch(() => null)) !== null, 15_000, 'calls to work again');
    expect(toolJson(await client.callTool({ name: 'get_current_room', arguments: {} }))).toMatchObject({ connected: false });
    await client.close();
  });

  it('exits 0 when the agent closes its input', async () => {
    const serve = await startServe();
    const result = await runCli(['mcp', '--data-dir', serve.dataDir], { input: '' });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    await serve.stop();
  });

  it('exits non-zero with a clear message when it cannot start an app', async () => {
    const parent = tempDir();
    writeFileSync(join(parent, 'a-file'), '');
    const dataDir = join(parent, 'a-file', 'data'); // a folder inside a file cannot exist
    const child = track(spawn(process.execPath, [cliBin, 'mcp', '--data-dir', dataDir], { stdio: ['pipe', 'pipe', 'pipe'] }));
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(stderr).toContain(`letagents-desktop mcp: no LetAgents app is running for ${dataDir}, and starting one failed: cannot write its log at`);
  });

  it('explains why the app it started could not run', async () => {
    const dataDir = tempDataDir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = new Database(join(dataDir, 'letagents.db'));
    db.pragma('user_version = 99');
    db.close();
    const child = track(spawn(process.execPath, [cliBin, 'mcp', '--data-dir', dataDir], { stdio: ['pipe', 'pipe', 'pipe'] }));
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(stderr).toContain(`no LetAgents app is running for ${dataDir}; the one started in the background exited with code 1.`);
    expect(stderr).toContain('This database was written by a newer version of LetAgents (schema 99');
  });
});
