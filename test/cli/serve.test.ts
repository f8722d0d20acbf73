import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { request } from 'node:http';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import Database from 'better-sqlite3';
import { cleanupSpawned, cliBin, connectHttp, ensureCliBuilt, runCli, startServe, tempDataDir, track, waitUntil } from '../support';

beforeAll(ensureCliBuilt);
afterAll(cleanupSpawned);

function post(port: number, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    })
      .on('error', reject)
      .end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }));
  });
}

describe('letagents-desktop serve', () => {
  it('prints exactly one JSON line saying where the UI, MCP endpoint and socket are', async () => {
    const serve = await startServe();
    const [line, ...rest] = serve.output().stdout.split('\n');
    expect(rest.join('')).toBe('');
    const printed = JSON.parse(line);
    expect(Object.keys(printed)).toEqual(['ui_url', 'mcp_url', 'socket', 'data_dir']);
    expect(serve.port).toBeGreaterThan(0);
    // The UI link carries a one-time code, never the agent token (issue 15 item 1).
    expect(printed.ui_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${serve.port}/#code=[A-Za-z0-9_-]{32}$`));
    expect(line).not.toContain(serve.token);
    expect(printed.mcp_url).toBe(`http://127.0.0.1:${serve.port}/mcp`);
    expect(printed.socket).toBe(join(serve.dataDir, 'agent.sock'));
    expect(existsSync(join(serve.dataDir, 'letagents.db'))).toBe(true);
    await serve.stop();
  });

  it('serves MCP over HTTP only to loopback requests with the agent token', async () => {
    const serve = await startServe();
    const host = `127.0.0.1:${serve.port}`;
    const accept = 'application/json, text/event-stream';
    expect(await post(serve.port, { host, accept })).toBe(401);
    expect(await post(serve.port, { host: `evil.example:${serve.port}`, accept, authorization: `Bearer ${serve.token}` })).toBe(421);
    expect(await post(serve.port, { host, accept, authorization: `Bearer ${serve.token}`, origin: 'https://evil.example' })).toBe(403);
    const client = await connectHttp(serve.mcpUrl, serve.token);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('get_current_room');
    await client.close();
    await serve.stop();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`shuts down cleanly on ${signal} and removes the socket`, async () => {
      const serve = await startServe();
      expect(existsSync(serve.socket)).toBe(true);
      const client = await connectHttp(serve.mcpUrl, serve.token);
      const exit = await serve.stop(signal);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(existsSync(serve.socket)).toBe(false);
      expect(serve.output().stderr).toBe('');
      await client.close().catch(() => undefined);
    });
  }

  it('refuses to start a second app for the same data folder', async () => {
    const serve = await startServe();
    const second = await runCli(['serve', '--json', '--data-dir', serve.dataDir]);
    expect(second.code).toBe(3);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `letagents-desktop serve: LetAgents is already running for this data folder (${serve.dataDir}). Use that app, or quit it first. (\`letagents-desktop open\` opens its UI.)\n`,
    );
    expect(existsSync(serve.socket)).toBe(true);
    await serve.stop();
  });

  it('replaces the stale socket an app killed mid-run left behind', async () => {
    const first = await startServe();
    await first.kill();
    expect(existsSync(first.socket)).toBe(true);
    const second = await startServe({ dataDir: first.dataDir });
    expect(second.socket).toBe(first.socket);
    await second.stop();
  });

  it('refuses to listen anywhere but loopback', async () => {
    const dataDir = tempDataDir();
    const result = await runCli(['serve', '--host', '0.0.0.0', '--data-dir', dataDir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing --host 0.0.0.0: the app listens on 127.0.0.1 only');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('says how to reach it from another computer: an SSH tunnel to the same port, then the printed link (issue 35 item 13)', async () => {
    // Logged in over SSH to 10.1.2.3: the refusal and the banner name the tunnel to run on the person's computer.
    const env = { SSH_CONNECTION: '192.168.5.9 50022 10.1.2.3 22' };
    const user = userInfo().username;
    const refused = await runCli(['serve', '--host', '0.0.0.0', '--port', '7521', '--data-dir', tempDataDir()], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`here \`letagents-desktop serve --port 7521\`; on your computer \`ssh -N -L 7521:127.0.0.1:7521 ${user}@10.1.2.3\``);
    expect(refused.stderr).toContain('then open the one-time link serve prints');
    // Without --port, a fixed one is suggested: the tunnel needs the same port on both ends.
    expect((await runCli(['serve', '--host', '0.0.0.0', '--data-dir', tempDataDir()], { env })).stderr).toContain('serve --port 7420');

    const dataDir = tempDataDir();
    const child = track(spawn(process.execPath, [cliBin, 'serve', '--port', '0', '--data-dir', dataDir], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    await waitUntil(() => stdout.includes('Press Ctrl-C'), 20_000, 'serve printing its banner');
    const port = /UI:\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)![1];
    expect(stdout).toContain(`Over SSH? On your computer run \`ssh -N -L ${port}:127.0.0.1:${port} ${user}@10.1.2.3\`, then open the UI link there.`);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  });

  it('refuses a database written by a newer version and leaves it untouched', async () => {
    const dataDir = tempDataDir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const path = join(dataDir, 'letagents.db');
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    const before = readFileSync(path);
    const result = await runCli(['serve', '--json', '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('This database was written by a newer version of LetAgents (schema 99');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('prints a readable summary without --json', async () => {
    const dataDir = tempDataDir();
    const child = track(spawn(process.execPath, [cliBin, 'serve', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    await new Promise<void>((resolve) => child.stdout!.on('data', (d) => ((out += d), out.includes('Ctrl-C') && resolve())));
    expect(out).toContain(`LetAgents is running for ${dataDir}`);
    expect(out).toMatch(/UI: +http:\/\/127\.0\.0\.1:\d+\/#code=[A-Za-z0-9_-]+ +\(a one-time link for one minute/);
    expect(out).not.toContain(readFileSync(join(dataDir, 'agent-token'), 'utf8').trim());
    expect(out).toContain(`Agent socket: ${join(dataDir, 'agent.sock')}`);
    child.kill('SIGTERM');
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
  });

  it('takes the port it had last time for the folder, so an open tab finds it again, and another when that one is taken', async () => {
    const first = await startServe({ port: 'last' });
    const remembered = join(first.dataDir, 'ui-port');
    expect(readFileSync(remembered, 'utf8')).toBe(`${first.port}\n`);
    if (process.platform !== 'win32') expect(statSync(remembered).mode & 0o777).toBe(0o600);
    await first.stop();
    const again = await startServe({ dataDir: first.dataDir, port: 'last' });
    expect(again.port).toBe(first.port);
    await again.stop();

    // Someone else took the port meanwhile: serve starts anyway, elsewhere, and remembers that.
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(first.port, '127.0.0.1', resolve));
    try {
      const moved = await startServe({ dataDir: first.dataDir, port: 'last' });
      expect(moved.port).not.toBe(first.port);
      expect(readFileSync(remembered, 'utf8')).toBe(`${moved.port}\n`);
      await moved.stop();
    } finally {
      squatter.close();
    }
  });

  it('fails at once with a clear message for a data folder that cannot be made', async () => {
    for (const dataDir of ['/proc/nope', join(tempDataDir(), 'file', 'below')]) {
      if (dataDir.startsWith('/proc') && process.platform !== 'linux') continue;
      if (!dataDir.startsWith('/proc')) {
        mkdirSync(join(dataDir, '..', '..'), { recursive: true });
        writeFileSync(join(dataDir, '..'), 'a file, not a folder');
      }
      const result = await runCli(['serve', '--json', '--data-dir', dataDir], { timeoutMs: 10_000 });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^letagents-desktop serve: Cannot create the data folder ${dataDir}: (the system allows no new folders there|a file is in the way)\\. `));
      expect(result.stderr).toContain('choose another folder with --data-dir or LETAGENTS_DESKTOP_DATA_DIR.');
    }
  });
});
