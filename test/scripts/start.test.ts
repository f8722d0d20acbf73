import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, ensureCliBuilt, repoRoot, tempDataDir, tempDir, track, waitUntil } from '../support';

beforeAll(ensureCliBuilt, 120_000);
afterAll(cleanupSpawned);

function get(url: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('npm start where the Electron binary is missing', () => {
  it('says so in one line, then serves the UI in the browser', async () => {
    const dataDir = tempDataDir();
    // Stand-ins for the browser openers: they record the address instead of opening it.
    const bin = tempDir('la-openers-');
    const opened = join(bin, 'opened.txt');
    for (const name of ['xdg-open', 'open']) {
      writeFileSync(join(bin, name), `#!/bin/sh\necho "$1" >> '${opened}'\n`);
      chmodSync(join(bin, name), 0o755);
    }
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const child = track(
      spawn('npm', ['start', '--silent', '--', '--data-dir', dataDir, '--port', '0'], {
        cwd: repoRoot,
        // Whether or not Electron is installed here, this points at a folder without it.
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ELECTRON_OVERRIDE_DIST_PATH: join(bin, 'no-electron') },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      }),
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    try {
      await waitUntil(() => /UI:\s+\S+/.test(stdout) || child.exitCode !== null, 60_000, 'the UI address').catch((error: Error) => {
        throw new Error(`${error.message}; npm start printed:\n${stdout}\n${stderr}`);
      });
      const lines = stdout.split('\n');
      expect(lines[0]).toMatch(/^Electron is not installed here \(.+\), so LetAgents runs in your browser instead: letagents-desktop serve --open$/);
      expect(lines[1]).toBe(`LetAgents is running for ${dataDir}`);
      // One link only (issue 35): the browser's; the terminal says it is opening it.
      expect(stdout).toMatch(/UI:\s+opening it in your browser/);
      expect(stdout).not.toMatch(/#code=/);

      // --open handed the UI address to the system's browser opener with its own one-time
      // code: never the agent token, which any local user could read from the opener's command line.
      await waitUntil(() => existsSync(opened), 10_000, 'a run of the browser opener');
      const token = readFileSync(join(dataDir, 'agent-token'), 'utf8').trim();
      const first = readFileSync(opened, 'utf8').trim();
      expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#code=[A-Za-z0-9_-]{32}$/);
      expect(`${stdout}${first}`).not.toContain(token);

      const page = await get(first.split('#')[0]);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.body).toContain('<title>LetAgents</title>');

      // npm start again while the app runs: the running app is opened with a fresh code.
      const again = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const second = track(
          spawn('npm', ['start', '--silent', '--', '--data-dir', dataDir], {
            cwd: repoRoot,
            env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ELECTRON_OVERRIDE_DIST_PATH: join(bin, 'no-electron') },
            stdio: ['ignore', 'pipe', 'pipe'],
          }),
        );
        let out = '';
        second.stdout!.on('data', (d) => (out += d));
        second.stderr!.on('data', (d) => (out += d));
        second.once('exit', (code) => resolve({ code, out }));
      });
      expect(again.out).toContain(`LetAgents is already running for ${dataDir}; opening it.`);
      expect(again.code).toBe(0);
      await waitUntil(() => readFileSync(opened, 'utf8').trim().split('\n').length === 2, 10_000, 'the second run of the browser opener');
      const second = readFileSync(opened, 'utf8').trim().split('\n')[1];
      expect(second).toMatch(/#code=[A-Za-z0-9_-]{32}$/);
      expect(second).not.toBe(first);
    } finally {
      // npm, the start script and serve share a process group: end exactly that group.
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
    // One clean shutdown, although every process of the group got the signal.
    await exited;
    await waitUntil(() => !existsSync(join(dataDir, 'agent.sock')), 10_000, 'the socket removed');
    expect(stdout).toContain('Stopping (stopped by SIGTERM)…');
    expect(stderr).toBe('');
  }, 90_000);
});
