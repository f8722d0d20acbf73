// One provider process: spawned in its own process group with the prompt on stdin, its
// stdout read line by line, and ended with its whole tree (the provider, our helper and
// anything it ran) — SIGTERM first, SIGKILL after a grace period.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
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
    env: launch.env,
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
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  signalTree(child.pid, 'SIGTERM');
  const timer = setTimeout(() => signalTree(child.pid!, 'SIGKILL'), KILL_GRACE_MS);
  await exited;
  clearTimeout(timer);
  // Anything left in the group (a tool the provider ran) goes as well.
  signalTree(child.pid, 'SIGKILL');
}

function signalTree(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}
