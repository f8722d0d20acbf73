// Building and running the real `letagents-desktop` command in tests. The CLI is built
// at most once per vitest run (under a lock, only when src/ is newer than out/cli), so a
// test file never rewrites the bundle while another one runs it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { track } from './processes';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const cliBin = join(repoRoot, 'bin', 'letagents-desktop.js');
const builtEntry = join(repoRoot, 'out', 'cli', 'cli.mjs');
const lockDir = join(repoRoot, 'out', '.cli-build.lock');
// Test files of one vitest run are forks of the same process.
const runMarker = join(repoRoot, 'out', `.cli-checked-by-${process.ppid}`);

/** Builds out/cli if any file under src/ is newer than it. Safe to call from every test file. */
export async function ensureCliBuilt(): Promise<void> {
  mkdirSync(join(repoRoot, 'out'), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      // Another test file is building; a lock older than a minute was left by a crash.
      if (Date.now() - mtime(lockDir) > 60_000) rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() - started > 90_000) throw new Error('Timed out waiting for the CLI build lock.');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    if (!existsSync(runMarker) && newestMtime(join(repoRoot, 'src')) > mtime(builtEntry)) {
      const result = spawnSync(process.execPath, ['scripts/buildCli.mjs'], { cwd: repoRoot, encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`CLI build failed:\n${result.stderr}`);
    }
    for (const name of readdirSync(join(repoRoot, 'out'))) {
      const marker = join(repoRoot, 'out', name);
      // Markers of runs long finished; a concurrent run keeps its own.
      if (name.startsWith('.cli-checked-by-') && Date.now() - mtime(marker) > 3_600_000) rmSync(marker, { force: true });
    }
    writeFileSync(runMarker, '');
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : mtime(path));
  }
  return newest;
}

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `letagents-desktop <args>` to completion (killed after timeoutMs). */
export function runCli(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = track(
      spawn(process.execPath, [cliBin, ...args], {
        cwd: options.cwd ?? repoRoot,
        env: { ...process.env, ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}
