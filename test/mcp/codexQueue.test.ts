// Waking an open Codex session (issue 26) with the real Codex CLI 0.171 against a fake
// Responses server (the model is the only fake: it lives off this machine), HOME in a temp
// folder. A real `codex exec` makes the thread; the open session is an SDK client through
// the real helper that names itself as Codex's MCP client does and sends the thread in its
// tools/call _meta, as Codex 0.171 does (no CODEX_THREAD_ID reaches MCP servers). A mention
// then makes the app run the real `codex queue --thread … --message … --resume`; with the
// real local daemon (`codex app-server daemon start`) that resumes the thread: a new model turn.
// The roster (workers.list, as `doctor` reads it) says which of the two ways the mention went.
// Every Codex command runs asynchronously: the fake model server answers from this process.
import { execFile, type ExecFileException } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, cliBin, tempDir, waitUntil, type ServeHandle } from '../support';
import { startFakeModel, type FakeModel } from '../support/fakeModels';
import { callApp } from '../../src/cli/appApi';
import type { AgentSession, WakePath } from '../../src/shared/model/workers';
import type { PlacedApp } from '../support/place';
import { CLI_BIN } from '../main/agents/managedApp';
import { connectAgent, registerWorker, startApp, type Agent } from './tools/harness';

const ROOM = 'codex-room';
const PATH = `${CLI_BIN}:${process.env.PATH ?? ''}`;

let home: string;
let model: FakeModel;
let serve: ServeHandle & PlacedApp;
let willow: Agent;
let cedar: Agent;
let cedarWorker: string;
let thread: string;
let daemonStarted = false;

/** Runs the real Codex CLI (stdin closed) and resolves with what it printed; rejects on a non-zero exit. */
function codex(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(`${CLI_BIN}/codex`, args, { env: { ...process.env, ...model.env, PATH }, timeout: 120_000 }, (error: ExecFileException | null, stdout, stderr) => {
      if (error) reject(new Error(`codex ${args[0]} failed: ${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** Processes whose command line names the test's Codex home: the daemon's, which `daemon stop` may leave behind. */
function daemonPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(home)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

beforeAll(async () => {
  home = tempDir('la-codex-home-');
  model = await startFakeModel('codex', home);
  serve = await startApp({ env: { ...model.env, PATH } });
  const started = await codex('exec', '--json', '--skip-git-repo-check', 'Start a session for LetAgents.');
  thread = /"thread_id":"([0-9a-f-]{36})"/.exec(started.stdout)![1];
  // From now on our helper is Codex's MCP server: a resumed turn offers our tools, which is how
  // the fake model tells an agent turn from Codex's background calls (titles).
  appendFileSync(join(home, '.codex', 'config.toml'), `\n[mcp_servers.letagents]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([cliBin, 'mcp', '--data-dir', serve.dataDir])}\n`);
  willow = await connectAgent(serve, { clientName: 'codex-mcp-client' });
  cedar = await connectAgent(serve, { clientName: 'letagents-test' });
  await withThread(willow.client, 'get_current_room');
  await registerWorker(willow, ROOM, 'Willow');
  cedarWorker = (await registerWorker(cedar, ROOM, 'Cedar')).workerId;
}, 180_000);

afterAll(async () => {
  if (daemonStarted) {
    await codex('app-server', 'daemon', 'stop').catch(() => undefined);
    for (const pid of daemonPids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await willow?.client.close();
  await cedar?.client.close();
  await serve?.stop();
  await model?.close();
  await cleanupSpawned();
}, 60_000);

/** A tools/call carrying the thread in _meta, as Codex 0.171 sends it. */
function withThread(client: Client, name: string, args: Record<string, unknown> = {}) {
  return client.callTool({ name, arguments: args, _meta: { threadId: thread, 'x-codex-turn-metadata': { thread_id: thread } } });
}
const statusOf = async (messageId: string) =>
  (await cedar.call('get_message_status', { worker_id: cedarWorker, message_id: messageId, agent: 'Willow' })).recipients[0] as Record<string, unknown>;
/** What the roster says about how the next mention reaches Willow. */
async function willowWakePath(): Promise<WakePath | undefined> {
  const answer = await callApp(serve.dataDir, 'workers.list', {});
  if (!answer.ok) throw new Error(answer.error.message);
  return (answer.value as AgentSession[]).find((a) => a.name === 'Willow')?.wakePath;
}
const modelSaw = (text: string) => model.script.requests.some((r) => r.prompts.some((p) => p.includes(text)));

describe('a Codex agent at its prompt', () => {
  it('without a Codex daemon: the message is queued to its thread (receipt: pushed), not resumed', async () => {
    const requests = model.script.requests.length;
    const id = (await cedar.call('send_message', { worker_id: cedarWorker, text: '@Willow first note while no daemon runs' })).id as string;
    await waitUntil(async () => (await statusOf(id)).pushed_at !== undefined, 60_000, 'the queued receipt');
    expect(await statusOf(id)).toMatchObject({ delivered_at: null });
    // Queued, not run: no model turn came from it, and the roster says why.
    expect(model.script.requests.length).toBe(requests);
    expect(await willowWakePath()).toBe('codex_no_daemon');
  }, 90_000);

  it('with the Codex daemon: a mention resumes its thread, and the model gets the message', async () => {
    await codex('app-server', 'daemon', 'start');
    daemonStarted = true;
    const id = (await cedar.call('send_message', { worker_id: cedarWorker, text: '@Willow please rerun the migration check' })).id as string;
    await waitUntil(() => modelSaw('please rerun the migration check'), 90_000, 'the resumed Codex turn');
    const prompt = model.script.requests.flatMap((r) => r.prompts).find((p) => p.includes('please rerun the migration check'))!;
    expect(prompt).toContain(`[LetAgents room ${ROOM}, ${id} from Cedar; answer with send_message]`);
    expect(await statusOf(id)).toMatchObject({ delivered_at: null, pushed_at: expect.any(String) });
    expect(await willowWakePath()).toBe('codex_queue');
  }, 120_000);
});
