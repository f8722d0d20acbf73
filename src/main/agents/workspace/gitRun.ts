// git for an agent's worktree: fixed arguments, no shell, never a prompt or a pager, and
// the exit code and stderr kept (a refused merge must say why), unlike domain/git's
// "unknown is null" reads.
import { execFile } from 'node:child_process';

const GIT_TIMEOUT_MS = 30_000;

export interface GitResult {
  readonly ok: boolean;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** git itself could not be started (not installed). */
  readonly missing: boolean;
}

export function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    try {
      execFile(
        'git',
        args,
        {
          cwd,
          timeout: GIT_TIMEOUT_MS,
          windowsHide: true,
          maxBuffer: 64 * 1024 * 1024,
          env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', GIT_EDITOR: 'true' },
        },
        (error, stdout, stderr) => {
          const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null) : 0;
          const missing = (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
          resolve({ ok: !error, code, stdout: String(stdout), stderr: String(stderr).trim(), missing });
        },
      );
    } catch (error) {
      resolve({ ok: false, code: null, stdout: '', stderr: String(error), missing: false });
    }
  });
}

/** Runs git and returns its trimmed stdout; throws with git's own words when it fails. */
export async function gitOut(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await git(cwd, args, env);
  if (!result.ok) throw new Error(result.stderr || `git ${args[0]} failed`);
  return result.stdout.trim();
}

/** Who the app's own commits are by (the person's git identity is not needed or touched). */
export const APP_IDENTITY = ['-c', 'user.name=LetAgents', '-c', 'user.email=letagents@localhost'] as const;
