// Disk and database faults from outside the app: another process holding the database's
// write lock, a data folder the app may not write (as root, serve runs as "nobody" so
// the folder's mode binds), and one-shot runs of `serve` that either come up or fail.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cliBin, repoRoot, track } from '../../support';

export interface LockHolder {
  /** Resolves once the other process holds the write lock. */
  readonly locked: Promise<void>;
  /** Commits and exits the other process. */
  release(): Promise<void>;
}

/** Another process opens the database and holds BEGIN IMMEDIATE (the write lock) until released. */
export function holdWriteLock(databaseFile: string): LockHolder {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1], { timeout: 10000 });
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });`;
  const child = track(spawn(process.execPath, ['-e', script, databaseFile], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] }));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    void exited.then(() => reject(new Error('the lock holder exited before locking')));
  });
  return {
    locked,
    release: async () => {
      child.stdin!.write('go\n');
      await exited;
    },
  };
}

/** The uid/gid to run serve with so that file modes bind even when the tests run as root. */
export function unprivileged(): { uid: number; gid: number } | null {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;
}

export interface ServeAttempt {
  /** True when serve printed its line (it is then stopped again). */
  readonly started: boolean;
  readonly code: number | null;
  readonly stderr: string;
}

/** Runs `serve --json` once: it either fails by itself or comes up and is stopped. */
export function tryServe(dataDir: string, options: { asUser?: { uid: number; gid: number } | null; timeoutMs?: number } = {}): Promise<ServeAttempt> {
  return new Promise((resolve) => {
    const child = track(
      spawn(process.execPath, [cliBin, 'serve', '--json', '--data-dir', dataDir], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(options.asUser ?? {}),
      }),
    );
    let stderr = '';
    let started = false;
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', () => {
      started = true;
      child.kill('SIGTERM');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ started, code, stderr });
    });
  });
}

export const sha256File = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
