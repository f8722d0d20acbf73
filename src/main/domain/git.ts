// How the app runs git (one runner, also for managed agents' worktrees), and reading a working
// directory's git context: repo root, origin URL, current and default branch. git runs
// asynchronously with fixed arguments, no shell and a timeout (5 s unless asked), so a hung or
// missing git never blocks the app; for the context reads every failure is "unknown" (null).
// No run starts a program a repository's config or files name (hooks, fsmonitor, submodules).
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
  /**
   * The git directory and work tree to run on, as the app recorded them: never found from the
   * `.git` in cwd, which whoever can write the work tree (an agent, in its worktree) can point
   * at a git directory, and so a config, of its choosing.
   */
  readonly repository?: { readonly gitDir: string; readonly workTree: string };
}

/**
 * Config every run overrides. No hook runs (a relative core.hooksPath, as husky sets, would
 * find them in the work tree), no fsmonitor, and no git is started inside a nested repository
 * or submodule (its own config is whatever is in the work tree).
 */
const NO_PROGRAMS = [
  '-c', 'core.fsmonitor=false',
  // No file can exist below /dev/null; on Windows, below the NUL device.
  '-c', `core.hooksPath=${process.platform === 'win32' ? 'NUL' : '/dev/null'}`,
  '-c', 'submodule.recurse=false',
] as const;

/** Variables of the app's own environment that would choose another repository, config or diff program. */
const CHOOSES_REPOSITORY = /^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|EXTERNAL_DIFF|ATTR_SOURCE)$/;

function gitEnv(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const env = childEnv();
  for (const key of Object.keys(env)) if (CHOOSES_REPOSITORY.test(key)) delete env[key];
  return { ...env, ...extra, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', GIT_EDITOR: 'true' };
}

/**
 * The one way the app runs git: fixed arguments, no shell, never a prompt, a pager, an editor
 * or a program named by config (NO_PROGRAMS), C locale (messages the app reads), and the
 * outcome whole (exit code, stdout, stderr).
 */
export function runGit(cwd: string, args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  const where = options.repository ? [`--git-dir=${options.repository.gitDir}`, `--work-tree=${options.repository.workTree}`] : [];
  return new Promise((resolve) => {
    // A cwd no process can start in (a file, a NUL byte, a name too long) makes execFile
    // throw at once instead of calling back.
    try {
      execFile(
        'git',
        [...NO_PROGRAMS, ...where, ...args],
        {
          cwd,
          timeout: options.timeoutMs ?? GIT_TIMEOUT_MS,
          windowsHide: true,
          maxBuffer: options.maxBuffer ?? 1024 * 1024,
          env: gitEnv(options.env),
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

/**
 * Reads of one folder's context already running, by what and where: a fleet of agents
 * connecting from one folder at once shares one set of git runs instead of starting a set
 * each (each start forks on the app's thread). Dropped when the run ends, so a later call
 * starts its own and sees the folder as it is then (a branch switched meanwhile).
 */
const running = new Map<string, Promise<unknown>>();
function shared<T>(what: string, cwd: string, read: () => Promise<T>): Promise<T> {
  const key = `${what}\0${cwd}`;
  let run = running.get(key) as Promise<T> | undefined;
  if (!run) {
    run = read().finally(() => running.delete(key));
    running.set(key, run);
  }
  return run;
}

/** The checked-out branch; null on a detached HEAD or outside a repository. */
export function gitCurrentBranch(cwd: string): Promise<string | null> {
  return shared('branch', cwd, () => readGit(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']));
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

/** Everything check_repo and auto-join need from git, read in parallel (shared while running). */
export function readRepoContext(cwd: string): Promise<RepoContext> {
  return shared('context', cwd, () => readRepoContextNow(cwd));
}

async function readRepoContextNow(cwd: string): Promise<RepoContext> {
  const root = await gitRepoRoot(cwd);
  if (!root) return { root: null, originUrl: null, currentBranch: null, defaultBranch: null };
  const [originUrl, currentBranch, defaultBranch] = await Promise.all([
    gitOriginUrl(cwd),
    gitCurrentBranch(cwd),
    gitDefaultBranch(cwd),
  ]);
  return { root, originUrl, currentBranch, defaultBranch };
}
