// A hostile agent (issue 15), through real `letagents-desktop mcp` helpers against a real
// app: it cannot take a worker over with a guessable registration key, sign the person out
// of GitHub, read a file through a symlinked .letagents.json, or store a javascript:, file:
// or data: link for the person to click; and a link the person opens from the browser UI
// reaches the system's opener as one argument, never a shell line.
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore, type MemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { probe } from '../support/httpProbe';
import { startFakeGitHub, type FakeGitHub } from '../support/fakeGitHub';
import { cleanupSpawned, connectHelper, ensureCliBuilt, startServe, tempDataDir, tempDir, waitUntil, type HelperClient } from '../support';
import { callTool, mustCall, registerWorker } from './lib/mcpCalls';
import { rawDbOf } from '../support/storage';

const ROOM = 'hostile-agent-room';
let github: FakeGitHub;
let host: AppHost;
let secrets: MemorySecretStore;
let mallory: HelperClient;
const attacks: Record<string, number> = {};
const refused = (what: string) => (attacks[what] = (attacks[what] ?? 0) + 1);

beforeAll(async () => {
  await ensureCliBuilt();
  github = await startFakeGitHub();
  secrets = createMemorySecretStore();
  host = await startAppHost({ dataDir: tempDataDir(), secrets, env: github.env(), home: tempDir(), port: 0, apiHost: { kind: 'browser', env: github.env() } });
  mallory = await connectHelper(host.app.core.dataDir, { cwd: tempDir() });
  await mustCall(mallory, 'join_room', { name: ROOM });
}, 60_000);

afterAll(async () => {
  await mallory?.close().catch(() => undefined);
  await host?.close();
  await github?.close();
  await cleanupSpawned();
  console.info(`hostile agent: ${Object.entries(attacks).map(([what, n]) => `${n} ${what}`).join(', ')} refused`);
});

const hardText = async (name: string, args: Record<string, unknown>) => {
  const outcome = await callTool(mallory, name, args);
  expect(outcome.kind, `${name} ${JSON.stringify(args).slice(0, 120)}`).toBe('hard');
  return (outcome as { text: string }).text;
};

describe('a hostile agent', () => {
  it('cannot register (or take over) a worker with a guessable registration key', async () => {
    const workers = () => rawDbOf(host.app.core.store).prepare('SELECT COUNT(*) AS n FROM workers').get() as { n: number };
    const before = workers().n;
    for (const key of ['1', 'password', '1111111111111111', 'aaaaaaaaaaaaaaaaaaaa', 'abcabcabcabcabcabc']) {
      expect(await hardText('register_agent_session', { room_id: ROOM, registration_key: key })).toMatch(/^registration_key must be 16–200 characters with at least 8 different ones/);
      refused('guessable registration keys');
    }
    expect(workers().n).toBe(before);
    const worker = await registerWorker(mallory, { room_id: ROOM, registration_key: randomUUID(), display_name: 'Mallory' });
    expect(worker.workerId).toMatch(/^worker_/);
  });

  it('cannot sign the person out of GitHub', async () => {
    github.nextDeviceCode = { interval: 1 };
    const started = await mustCall(mallory, 'start_device_auth', {});
    github.approve();
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await mustCall(mallory, 'poll_device_auth', { request_id: started.request_id })).status).toBe('authorized');
    const token = github.issuedTokens.at(-1)!;
    const result = await mustCall(mallory, 'clear_saved_auth', {});
    expect(result).toMatchObject({ success: true, signed_out: false, pending_sign_in_cleared: false });
    refused('sign-outs');
    expect([...secrets.entries.values()]).toEqual([token]);
    const status = await host.dispatch('auth.status', {});
    expect(status).toMatchObject({ ok: true, value: { signedIn: true } });
    // The person can.
    expect(await host.dispatch('auth.signOut', {})).toEqual({ ok: true, value: { removed: true } });
    expect(secrets.entries.size).toBe(0);
  });

  it('cannot read a file through a symlinked .letagents.json, nor have it overwritten', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const credentials = join(tempDir(), 'credentials');
    writeFileSync(credentials, '{"room": "exfiltrate", "aws_secret_access_key": "AKIA-HOSTILE-0001"}\n');
    const repo = tempDir('la-hostile-repo-');
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    symlinkSync(credentials, join(repo, '.letagents.json'));
    const report = await mustCall(mallory, 'check_repo', { cwd: repo });
    expect(report).toMatchObject({ config_contents: '<symlink refused>', configured_room_from_file: null });
    expect(JSON.stringify(report)).not.toMatch(/AKIA|exfiltrate/);
    refused('symlinked config reads');
    expect((await callTool(mallory, 'initialize_repo', { cwd: repo, room: 'overwrite-it' })).kind).toBe('soft');
    expect(readFileSync(credentials, 'utf8')).toContain('AKIA-HOSTILE-0001');
    expect(warn).toHaveBeenCalledWith(`Ignoring ${join(repo, '.letagents.json')}: it is a symbolic link, and only a regular file is read.`);
    warn.mockRestore();
  });

  it('cannot store a javascript:, file: or data: link on a task or in the room', async () => {
    const worker = await registerWorker(mallory, { room_id: ROOM, registration_key: randomUUID(), display_name: 'Linker' });
    const added = await mustCall(mallory, 'add_task', { worker_id: worker.workerId, title: 'Fix the login page' });
    const taskId = String((added.task as { id: string }).id);
    const number = Number(taskId.slice('task_'.length));
    await host.dispatch('tasks.accept', { roomId: ROOM, number });
    await mustCall(mallory, 'claim_task', { worker_id: worker.workerId, task_id: taskId });
    const bad = ['javascript:alert(document.cookie)', 'file:///etc/passwd', 'data:text/html,<script>alert(1)</script>', 'http://evil.example/phish', 'vbscript:msgbox(1)'];
    for (const url of bad) {
      const artifact = { provider: 'github', kind: 'pull_request', number: 1, title: 'Looks legit', url };
      expect(await hardText('update_task', { worker_id: worker.workerId, task_id: taskId, workflow_artifacts: [artifact] })).toContain('only https: links');
      expect(await hardText('update_task', { worker_id: worker.workerId, task_id: taskId, pr_url: url })).toContain('only https: links');
      expect(await hardText('publish_room_artifact', { worker_id: worker.workerId, artifact })).toContain('only https: links');
      refused('unsafe links');
    }
    const task = await host.dispatch('tasks.get', { roomId: ROOM, number });
    expect(task).toMatchObject({ ok: true, value: { artifacts: [], pr: null } });
    expect((await mustCall(mallory, 'get_room_artifacts', { room_id: ROOM })).artifacts).toEqual([]);
  });
});

describe('opening a link from the browser UI (serve)', () => {
  it('hands the system opener the parsed URL as one argument, never a shell line', async () => {
    const bin = tempDir('la-openers-');
    const log = join(bin, 'opened.txt');
    // Records how many arguments it got and each one on its own line.
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\n{ echo "argc=$#"; for a in "$@"; do echo "arg=$a"; done; } >> '${log}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const serve = await startServe({ env: { PATH: `${bin}:${process.env.PATH}` } });
    try {
      const code = new URLSearchParams(new URL(await serve.newUiUrl()).hash.slice(1)).get('code');
      const session = await probe(serve.port, { method: 'POST', path: '/api/session', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
      const cookie = String(session.headers['set-cookie']).split(';')[0];
      const key = (JSON.parse(session.body) as { key: string }).key;
      const socket = new WebSocket(`ws://127.0.0.1:${serve.port}/api/ws`, ['letagents', `key.${key}`], { headers: { Cookie: cookie } });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      let id = 0;
      const call = (method: string, input: unknown) =>
        new Promise<{ ok: boolean; value?: unknown }>((resolve) => {
          const mine = ++id;
          const onMessage = (data: WebSocket.RawData) => {
            const frame = JSON.parse(String(data));
            if (frame.id !== mine) return;
            socket.off('message', onMessage);
            resolve(frame.result);
          };
          socket.on('message', onMessage);
          socket.send(JSON.stringify({ id: mine, method, input }));
        });
      const hostile = 'https://example.com/a&calc.exe|whoami^x%PATH%"q\'s`id`$(id)';
      expect(await call('app.openExternal', { url: hostile })).toEqual({ ok: true, value: { opened: true } });
      // The opener writes its lines one by one: wait for the argument's, not just the file.
      await waitUntil(() => existsSync(log) && /^arg=.*\n/m.test(readFileSync(log, 'utf8')), 15_000, 'the opener to run');
      expect(readFileSync(log, 'utf8')).toBe(`argc=1\narg=${new URL(hostile).href}\n`);
      for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'http://example.com/']) {
        expect((await call('app.openExternal', { url })).ok).toBe(false);
        refused('links outside https');
      }
      expect(readFileSync(log, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
      socket.close();
    } finally {
      await serve.stop();
    }
  });
});
