// One provider process: spawned in its own process group, in its folder (PWD included), with
// the prompt on stdin; its stdout read line by line, and ended with its whole tree (the
// provider, our helper and anything it ran, also in process groups of their own) — SIGTERM
// first, SIGKILL after a grace period.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { childEnv } from '../childEnv';
import type { ProviderLaunch } from './types';

/** How long a provider gets to exit after SIGTERM before SIGKILL (Stop must finish within 5 s). */
const KILL_GRACE_MS = 2_000;
const STDERR_TAIL_CHARS = 4_000;

export interface ProviderProcess {
  readonly pid: number | undefined;
  /** Every stdout line, as it arrives. */
  readonly lines: AsyncIterable<string>;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; spawnError: string | null }>;
  /** The last few KB of stderr, for errors. */
  stderrTail(): string;
  /** Ends the process tree; resolves once the provider exited. */
  kill(): Promise<void>;
}

export function startProviderProcess(launch: ProviderLaunch, prompt: string): ProviderProcess {
  const child: ChildProcess = spawn(launch.command, launch.args, {
    cwd: launch.cwd,
    // PWD names the folder it runs in, not the app's: OpenCode takes its project folder (its
    // fence) from PWD, and a shell a provider starts reports it.
    env: { ...launch.env, PWD: launch.cwd },
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so Stop can end the helper and tools it started too.
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; spawnError: string | null }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, spawnError: error.message }));
    child.once('exit', (code, signal) => resolve({ code, signal, spawnError: null }));
  });
  child.stdin?.on('error', () => undefined); // a provider that exits early closes its stdin
  child.stdin?.end(prompt);
  const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
  let killing: Promise<void> | undefined;
  return {
    pid: child.pid,
    lines,
    exited,
    stderrTail: () => stderr.trim(),
    kill: () => (killing ??= killTree(child, exited)),
  };
}

async function killTree(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { env: childEnv(), windowsHide: true });
    await exited;
    return;
  }
  // Taken before the provider goes: once it has exited, its children are no longer its.
  const tree = new Set(descendantsOf(pid));
  signalAll(pid, tree, 'SIGTERM');
  const timer = setTimeout(() => {
    for (const p of descendantsOf(pid)) tree.add(p);
    signalAll(pid, tree, 'SIGKILL');
  }, KILL_GRACE_MS);
  await exited;
  clearTimeout(timer);
  // Whatever is left (a tool the provider ran, our helper) goes as well.
  signalAll(pid, tree, 'SIGKILL');
}

function signalAll(groupLeader: number, pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const target of [-groupLeader, ...pids]) {
    try {
      process.kill(target, signal);
    } catch {
      // Gone already.
    }
  }
}

/** Every process below `root` (children, their children, …), whatever process group they chose. */
function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of processTable()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** [pid, parent pid] of every process: from /proc on Linux, from `ps` elsewhere. */
function processTable(): Array<[number, number]> {
  if (process.platform === 'linux') {
    const rows: Array<[number, number]> = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        rows.push([Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])]);
      } catch {
        // exited meanwhile
      }
    }
    return rows;
  }
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { env: childEnv(), encoding: 'utf8' });
  return (ps.stdout ?? '')
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((pair): pair is [number, number] => pair.length === 2 && pair.every(Number.isInteger));
}
