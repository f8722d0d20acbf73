import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runDoctor } from '../../src/cli/doctor/run';
import { cleanupSpawned, ensureCliBuilt, runCli, startServe, tempDataDir } from '../support';
import { connectAgent, registerWorker } from '../mcp/tools/harness';

beforeAll(ensureCliBuilt);
afterAll(cleanupSpawned);

const doctor = (dataDir: string) => runCli(['doctor', '--data-dir', dataDir]);

describe('letagents-desktop doctor', () => {
  it('explains a data folder that does not exist yet and finds no problem', async () => {
    const dataDir = tempDataDir();
    const result = await doctor(dataDir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`LetAgents doctor: data folder ${dataDir}`);
    expect(result.stdout).toContain(`[--] Data folder: ${dataDir} does not exist yet; the app creates it on first start.`);
    expect(result.stdout).toContain('[--] Database: No database yet');
    expect(result.stdout).toContain('[--] App: Not running. An agent\'s `letagents-desktop mcp` starts it when needed.');
    expect(result.stdout).toMatch(/\[(ok|--)\] Keychain and GitHub sign-in: /);
    expect(result.stdout).toMatch(/\[(ok|--)\] Agent configs: /);
    expect(result.stdout).toContain('No problems found.');
  });

  it.skipIf(process.platform !== 'linux')('reports a data folder that cannot be made as a problem, at once', async () => {
    const result = await runCli(['doctor', '--data-dir', '/proc/nope'], { timeoutMs: 10_000 });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('[!!] Data folder: /proc/nope cannot be created: the system allows no new folders there (in /proc).');
    expect(result.stdout).toContain('     fix: Choose another folder with --data-dir or LETAGENTS_DESKTOP_DATA_DIR.');
  });

  it('reports a running app that accepts the token, and everything in order', async () => {
    const serve = await startServe();
    const result = await doctor(serve.dataDir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`[ok] Data folder: ${serve.dataDir} (mode 0700)`);
    expect(result.stdout).toMatch(/\[ok\] Database: .*letagents\.db opens \(schema version \d+\)\./);
    expect(result.stdout).toContain('[ok] Agent token: ');
    expect(result.stdout).toContain(`It answers on ${serve.socket} and accepts the agent-token.`);
    expect(result.stdout).toContain('[ok] App: Running: `letagents-desktop serve`');
    expect(result.stdout).toContain('[ok] Agents a mention cannot wake: No agent is connected.');
    await serve.stop();
  });

  it('names the connected agents a mention cannot wake at their prompt, with why and the way out (issue 26)', async () => {
    const serve = await startServe();
    // At their prompt (registered, not waiting): Juniper in Cursor has no channel; Birch is Claude Code started
    // without the channel flag; Willow is Codex whose session has not named its thread yet. Cedar is Claude Code
    // started with the flag (pushed to): a mention can reach it, so it is not listed.
    const [juniper, birch, willow, cedar] = await Promise.all([
      connectAgent(serve, { ide: 'Cursor' }),
      connectAgent(serve, { clientName: 'claude-code' }),
      connectAgent(serve, { clientName: 'codex-mcp-client' }),
      connectAgent(serve, { clientName: 'claude-code', agentFlags: ['--dangerously-load-development-channels', 'server:letagents'] }),
    ]);
    try {
      await registerWorker(juniper, 'doctor_room', 'Juniper');
      await Promise.all([registerWorker(birch, 'doctor_room', 'Birch'), registerWorker(willow, 'doctor_room', 'Willow'), registerWorker(cedar, 'doctor_room', 'Cedar')]);
      const result = await doctor(serve.dataDir);
      expect(result.code).toBe(0);
      const line = result.stdout.split('\n').find((l) => l.startsWith('[--] Agents a mention cannot wake: '));
      expect(line, result.stdout).toBeDefined();
      expect(line).toContain('Juniper (Cursor) in room doctor_room: no channel; mentions reach it only when it next calls a tool');
      expect(line).toContain('Birch (Claude Code) in room doctor_room: started without the channel flag; mentions reach it only when it next calls a tool');
      expect(line).toContain('Willow (Codex) in room doctor_room: its Codex session has not named its thread yet; mentions reach it only when it next calls a tool');
      expect(line).not.toContain('Cedar');
      // An API-key user cannot use the channel: a managed agent is the way out (issue 35).
    expect(result.stdout).toContain(
      '     fix: Start Claude Code with `claude --dangerously-load-development-channels server:letagents` (a claude.ai sign-in is needed). ' +
        'Signed in with an API key (channels refuse one)? Let LetAgents run it as a managed agent instead: Agents → Add agent, or `letagents-desktop agent add`; a mention then starts its turn. ' +
        'An agent without a channel is woken only inside wait_for_messages: ask it to wait for messages when it is idle.',
    );
    } finally {
      await Promise.all([juniper, birch, willow, cedar].map((a) => a.client.close()));
      await serve.stop();
    }
  });

  it('notes the stale socket of an app that crashed', async () => {
    const serve = await startServe();
    await serve.kill();
    const result = await doctor(serve.dataDir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('[--] App: Not running (a stale socket file is left; the next start replaces it).');
  });

  it.skipIf(process.platform === 'win32')('flags a token file and folder others can read, with the fix, and exits 1', async () => {
    const serve = await startServe();
    await serve.stop();
    chmodSync(join(serve.dataDir, 'agent-token'), 0o644);
    chmodSync(serve.dataDir, 0o755);
    const result = await doctor(serve.dataDir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`[!!] Agent token: ${join(serve.dataDir, 'agent-token')} has mode 0644: other users could read the secret agents use.`);
    expect(result.stdout).toContain(`     fix: chmod 600 "${join(serve.dataDir, 'agent-token')}"`);
    expect(result.stdout).toContain(`[!!] Data folder: ${serve.dataDir} has mode 0755`);
    expect(result.stdout).toContain('2 problems found.');
  });

  it('refuses a database from a newer version without changing it, and exits 1', async () => {
    const dataDir = tempDataDir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const path = join(dataDir, 'letagents.db');
    const db = new Database(path);
    db.pragma('user_version = 99');
    db.close();
    const before = readFileSync(path);
    const result = await doctor(dataDir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('[!!] Database: This database was written by a newer version of LetAgents (schema 99');
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('runs any list of checks, so more can be added, and counts a failing check as a problem', async () => {
    const lines: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => (lines.push(chunk), true)) as typeof process.stdout.write;
    let code: number;
    try {
      code = await runDoctor(['--data-dir', tempDataDir()], [
        { title: 'Keychain', run: () => ({ status: 'ok', summary: 'reachable' }) },
        { title: 'GitHub', run: () => Promise.reject(new Error('network down')) },
      ]);
    } finally {
      process.stdout.write = write;
    }
    expect(code).toBe(1);
    expect(lines).toContain('[ok] Keychain: reachable\n');
    expect(lines).toContain('[!!] GitHub: The check itself failed: network down\n');
  });
});
