// How the app runs git (one runner, also for managed agents' worktrees), and reading a working
// directory's git context: repo root, origin URL, current and default branch. git runs
// asynchronously with fixed arguments, no shell and a timeout (5 s unless asked), so a hung or
// missing git never blocks the app; for the context reads every failure is "unknown" (null).
import { execFile } from 'node:child_process';
import { childEnv } from '../childEnv';

export const GIT_TIMEOUT_MS = 5_000;

export interface GitResult {
  readonly ok: boolean;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** git itself could not be started (not installed). */
  readonly missing: boolean;
}

export interface GitRunOptions {
  /** Added to the person's environment (e.g. GIT_INDEX_FILE). */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  readonly maxBuffer?: number;
}

/**
 * The one way the app runs git: fixed arguments, no shell, never a prompt, a pager or an
 * editor, C locale (messages the app reads), and the outcome whole (exit code, stdout, stderr).
 */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    // A cwd no process can start in (a file, a NUL byte, a name too long) makes execFile
    // throw at once instead of calling back.
    try {
      execFile(
        'git',
        args,
        {
          cwd,
          timeout: options.timeoutMs ?? GIT_TIMEOUT_MS,
          windowsHide: true,
          maxBuffer: options.maxBuffer ?? 1024 * 1024,
          env: { ...childEnv(), ...options.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', GIT_EDITOR: 'true' },
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null) : 0;
          const missing = (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
          resolve({ ok: !error, code, stdout: String(stdout), stderr: String(stderr).trim(), missing });
        },
      );
    } catch (error) {
      resolve({ ok: false, code: null, stdout: '', stderr: String(error), missing: false });
    }
  });
}

/** Runs git in `cwd`; the trimmed stdout, or null when git fails, is missing or times out. */
async function readGit(cwd: string, args: readonly string[]): Promise<string | null> {
  const result = await runGit(cwd, args);
  const out = result.stdout.trim();
  return result.ok && out !== '' ? out : null;
}

export function gitRepoRoot(cwd: string): Promise<string | null> {
  return readGit(cwd, ['rev-parse', '--show-toplevel']);
}

export function gitOriginUrl(cwd: string): Promise<string | null> {
  return readGit(cwd, ['config', '--get', 'remote.origin.url']);
}

/** The checked-out branch; null on a detached HEAD or outside a repository. */
export function gitCurrentBranch(cwd: string): Promise<string | null> {
  return readGit(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
}

/** origin/HEAD's branch, else `main` or `master` when such a branch exists locally or on origin. */
export async function gitDefaultBranch(cwd: string): Promise<string | null> {
  const originHead = await readGit(cwd, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']);
  if (originHead) return originHead.replace(/^origin\//, '');
  for (const name of ['main', 'master']) {
    for (const ref of [`refs/heads/${name}`, `refs/remotes/origin/${name}`]) {
      if (await readGit(cwd, ['rev-parse', '--verify', '--quiet', ref])) return name;
    }
  }
  return null;
}

export interface RepoContext {
  root: string | null;
  originUrl: string | null;
  currentBranch: string | null;
  defaultBranch: string | null;
}

/** Everything check_repo and auto-join need from git, read in parallel. */
export async function readRepoContext(cwd: string): Promise<RepoContext> {
  const root = await gitRepoRoot(cwd);
  if (!root) return { root: null, originUrl: null, currentBranch: null, defaultBranch: null };
  const [originUrl, currentBranch, defaultBranch] = await Promise.all([
    gitOriginUrl(cwd),
    gitCurrentBranch(cwd),
    gitDefaultBranch(cwd),
  ]);
  return { root, originUrl, currentBranch, defaultBranch };
}
