// Reading a working directory's git context: repo root, origin URL, current and default
// branch. git runs asynchronously with fixed arguments, no shell and a 5 s timeout, so a
// hung or missing git never blocks the app; every failure reads as "unknown" (null).
import { execFile } from 'node:child_process';
import { childEnv } from '../childEnv';

export const GIT_TIMEOUT_MS = 5_000;

/** Runs git in `cwd`; the trimmed stdout, or null when git fails, is missing or times out. */
function runGit(cwd: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    // A cwd no process can start in (a file, a NUL byte, a name too long) makes execFile
    // throw at once instead of calling back: that folder is simply not a repository.
    try {
      startGit(cwd, args, resolve);
    } catch {
      resolve(null);
    }
  });
}

function startGit(cwd: string, args: readonly string[], resolve: (out: string | null) => void): void {
  {
    execFile(
      'git',
      args,
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        windowsHide: true,
        maxBuffer: 1024 * 1024,
        // Never prompt for credentials or open a pager from a background process.
        env: { ...childEnv(), GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
      },
      (error, stdout) => {
        if (error) return resolve(null);
        const out = String(stdout).trim();
        resolve(out === '' ? null : out);
      },
    );
  }
}

export function gitRepoRoot(cwd: string): Promise<string | null> {
  return runGit(cwd, ['rev-parse', '--show-toplevel']);
}

export function gitOriginUrl(cwd: string): Promise<string | null> {
  return runGit(cwd, ['config', '--get', 'remote.origin.url']);
}

/** The checked-out branch; null on a detached HEAD or outside a repository. */
export function gitCurrentBranch(cwd: string): Promise<string | null> {
  return runGit(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
}

/** origin/HEAD's branch, else `main` or `master` when such a branch exists locally or on origin. */
export async function gitDefaultBranch(cwd: string): Promise<string | null> {
  const originHead = await runGit(cwd, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']);
  if (originHead) return originHead.replace(/^origin\//, '');
  for (const name of ['main', 'master']) {
    for (const ref of [`refs/heads/${name}`, `refs/remotes/origin/${name}`]) {
      if (await runGit(cwd, ['rev-parse', '--verify', '--quiet', ref])) return name;
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
