// The processes a benchmark starts: `letagents-desktop serve`, stdio helpers driven by the
// MCP SDK client, and the bare SDK server floor. Every child and temp folder is tracked
// so one cleanup() ends them (by pid) and removes the folders, even after a failure.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { hopTraceEnv, markClient } from './hops';

// The bundle runs from out/bench/; the sources sit at the repository root.
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const cliBin = join(repoRoot, 'bin', 'letagents-desktop.js');
export const bareServerScript = join(repoRoot, 'bench', 'fixtures', 'bareServer.mjs');
/** Stands in for an agent process started with given flags (e.g. Claude Code's channel flag), the helper's parent. */
export const agentProcessScript = join(repoRoot, 'bench', 'fixtures', 'agentProcess.mjs');

const children = new Set<ChildProcess>();
const clients = new Set<Client>();
const tempDirs = new Set<string>();

/** A fresh temp folder (short path: the agent socket lives inside), removed by cleanup(). */
/** CPU a process has used so far (user + system), in clock ticks from /proc (Linux); null when it is gone. */
export function cpuTicksOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

export function tempDir(prefix = 'la-bench-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

export interface Serve {
  readonly dataDir: string;
  readonly pid: number;
  readonly mcpUrl: string;
  readonly uiUrl: string;
  /** Milliseconds from spawn to the printed JSON line. */
  readonly readyMs: number;
  stop(): Promise<void>;
}

/**
 * Spawns `serve --json --port 0` on `dataDir` (with `env` added to this process's) and resolves
 * once it printed its line; `bin` runs another build's CLI (a baseline, builds.ts).
 */
export function startServe(dataDir: string, timeoutMs = 60_000, env: NodeJS.ProcessEnv = {}, bin = cliBin): Promise<Serve> {
  const started = performance.now();
  // BENCH_SERVE_NODE_OPTIONS profiles the app under load, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeOptions = process.env.BENCH_SERVE_NODE_OPTIONS;
  const child = track(
    spawn(process.execPath, [bin, 'serve', '--json', '--data-dir', dataDir, '--port', '0'], {
      cwd: tmpdir(),
      env: { ...process.env, ...env, ...hopTraceEnv(), ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  child.once('error', (error) => (stderr += String(error)));
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`serve exited before it was ready: ${stderr}`));
    });
    child.stdout!.on('data', (d) => {
      stdout += d;
      const end = stdout.indexOf('\n');
      if (end < 0) return;
      const readyMs = performance.now() - started;
      clearTimeout(timer);
      const line = JSON.parse(stdout.slice(0, end)) as Record<string, string>;
      let stopping = false;
      // A figure that fails with "the connection to the app was lost" says why the app went.
      void exited.then(() => {
        if (!stopping) console.error(`  serve exited during the figure (code ${child.exitCode}, signal ${child.signalCode}): ${stderr.slice(-2_000)}`);
      });
      resolvePromise({
        dataDir,
        pid: child.pid!,
        mcpUrl: line.mcp_url,
        uiUrl: line.ui_url,
        readyMs,
        stop: async () => {
          stopping = true;
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

/**
 * An SDK client on a stdio process: our helper (`mcp --data-dir`) or the bare floor server.
 * While hops are traced (hops.ts), the process gets the trace folder and the client notes when
 * it sends and receives each request.
 */
export async function connectStdio(command: string[], cwd: string, name = 'letagents-bench'): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: command, cwd, stderr: 'pipe', env: hopTraceEnv() });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    if ('method' in message) markClient('agent.send', transport.pid ?? undefined, (message as { id?: unknown }).id);
    return send(message);
  };
  const client = new Client({ name, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (!('method' in message)) {
      answeredAt.set(client, performance.now());
      markClient('agent.recv', transport.pid ?? undefined, (message as { id?: unknown }).id);
    }
    receive?.(message);
  };
  clients.add(client);
  return client;
}

const answeredAt = new WeakMap<Client, number>();

/**
 * When the client's process last had an answer (performance.now()): its transport read and
 * parsed the frame, before the client's own schema checks of the result. Fifty clients share
 * this process in B3; what each real agent does after that in its own process is not counted.
 */
export function lastAnswerAt(client: Client): number | undefined {
  return answeredAt.get(client);
}

/** The helper process's pid of a client connectStdio made (hop traces name requests by it). */
export function helperPid(client: Client): number | undefined {
  return (client.transport as StdioClientTransport | undefined)?.pid ?? undefined;
}

/**
 * Connects through a real `letagents-desktop mcp` helper; `cwd` is the agent's folder; `tools`
 * its --tools profile; `bin` another build's CLI (a baseline, builds.ts).
 */
export function connectHelper(dataDir: string, cwd: string, name?: string, options: { tools?: string; bin?: string } = {}): Promise<Client> {
  const { tools, bin = cliBin } = options;
  return connectStdio([bin, 'mcp', '--data-dir', dataDir, ...(tools ? ['--tools', tools] : [])], cwd, name);
}

export function connectBareServer(cwd: string): Promise<Client> {
  return connectStdio([bareServerScript], cwd);
}

export async function closeClient(client: Client): Promise<void> {
  clients.delete(client);
  await client.close().catch(() => undefined);
}

/** Ends `child` with the run (cleanup) if nothing else does. */
export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Starts serve on the workspace's data folder and one helper into it (of `bin`'s build); stops both whatever `fn` does. */
export async function withServeAndHelper<T>(ws: { dataDir: string; agentDir: string }, fn: (helper: Client) => Promise<T>, bin = cliBin): Promise<T> {
  const serve = await startServe(ws.dataDir, undefined, undefined, bin);
  let helper: Client | null = null;
  try {
    helper = await connectHelper(ws.dataDir, ws.agentDir, undefined, { bin });
    return await fn(helper);
  } finally {
    if (helper) await closeClient(helper);
    await serve.stop();
  }
}

/** Closes every client, kills every child we spawned, removes every temp folder. */
export async function cleanup(): Promise<void> {
  await endProcesses();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Closes every client and ends every child (a figure past its time limit leaves them running). */
export async function endProcesses(): Promise<void> {
  await Promise.all([...clients].map((c) => closeClient(c)));
  const waits = [...children].map(
    (child) =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  );
  await Promise.race([Promise.all(waits), new Promise((r) => setTimeout(r, 8_000))]);
}
