// Every process a test starts is tracked here, so one call in afterEach/afterAll ends
// them all (by pid) and removes the temporary data folders.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './waitUntil';

const children = new Set<ChildProcess>();
const pids = new Set<number>();
const tempDirs = new Set<string>();

export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** For processes the tests did not spawn themselves (e.g. an app a helper started). */
export function trackPid(pid: number): void {
  pids.add(pid);
}

/** A fresh empty temp folder, removed by cleanupSpawned(). */
export function tempDir(prefix = 'la-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/**
 * A fresh empty temp folder below `root`/.tmp/ instead of the system's world-writable temp
 * folder: for CLIs that refuse settings files with such a folder among its parents (Gemini CLI's
 * system settings). `root` must not be under one either (the home folder, not a checkout that may
 * itself be in /tmp). Removed by cleanupSpawned().
 */
export function privateTempDir(root: string, prefix = 'la-'): string {
  mkdirSync(join(root, '.tmp'), { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(root, '.tmp', prefix));
  tempDirs.add(dir);
  return dir;
}

/** A fresh, not yet existing data folder (its parent is a new temp folder with a short path). */
export function tempDataDir(): string {
  return join(tempDir(), 'data');
}

/**
 * Runs `during` with the processes held (SIGSTOP, and waited for until the kernel has stopped
 * each), then lets them go on (SIGCONT) however `during` ends: a test that needs some of its
 * processes to do nothing for a moment, whatever the machine's load.
 */
export async function whileStopped<T>(pids: readonly number[], during: () => Promise<T>): Promise<T> {
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  try {
    await waitUntil(() => pids.every((pid) => processState(pid) === 'T'), 15_000, 'the processes stopped');
    return await during();
  } finally {
    for (const pid of pids) process.kill(pid, 'SIGCONT');
  }
}

/** A process's state letter (R, S, T…) from /proc/<pid>/stat (its command name may hold spaces). */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.charAt(stat.lastIndexOf(')') + 2);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills every tracked process and waits (bounded) for them to go; removes temp folders. */
export async function cleanupSpawned(): Promise<void> {
  const waits = [...children].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  pids.clear();
  await Promise.race([Promise.all(waits), new Promise((r) => setTimeout(r, 5_000))]);
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}
