// Real git repositories in temp folders for the worktree tests, and "marks": little programs
// that leave a file behind when anything runs them, so a test can show that git ran nothing it
// was pointed at (a hook, an fsmonitor, a diff driver, …).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../support';

/** git as the person runs it (their own identity). */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], { cwd, encoding: 'utf8' }).trim();

/** A repository on `main` with one commit (shared.txt, README.md). */
export function initRepo(folder: string): void {
  git(folder, 'init', '-q', '-b', 'main');
  writeFileSync(join(folder, 'shared.txt'), 'first line\n');
  writeFileSync(join(folder, 'README.md'), '# Project\n');
  git(folder, 'add', '-A');
  git(folder, 'commit', '-q', '-m', 'start');
}

export interface Marks {
  /** Where the marks land. */
  readonly dir: string;
  /** A program that leaves the mark `name` (and then behaves as `then`: passes stdin on, fails, …). */
  program(name: string, then?: 'ok' | 'fail' | 'cat' | 'catFirstArg'): string;
  /** The marks left so far. */
  left(): string[];
}

export function marks(): Marks {
  const dir = tempDir('la-marks-');
  const bin = tempDir('la-mark-bin-');
  const tails = { ok: 'exit 0', fail: 'exit 1', cat: 'cat', catFirstArg: 'cat "$1"' } as const;
  return {
    dir,
    program(name, then = 'ok') {
      const path = join(bin, name);
      writeFileSync(path, `#!/bin/sh\ntouch '${join(dir, name)}'\n${tails[then]}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    left: () => readdirSync(dir).sort(),
  };
}

/** Every hook git knows, each a mark named hook-<name>, in a folder of their own. */
export const HOOK_NAMES = [
  'applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg',
  'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'proc-receive',
  'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite',
  'sendemail-validate', 'fsmonitor-watchman', 'p4-changelist', 'p4-prepare-changelist', 'p4-post-changelist',
  'p4-pre-submit', 'post-index-change',
] as const;

export function hooksFolder(m: Marks, folder: string): string {
  mkdirSync(folder, { recursive: true });
  for (const hook of HOOK_NAMES) {
    const path = join(folder, hook);
    writeFileSync(path, `#!/bin/sh\n'${m.program(`hook-${hook}`)}'\n`);
    chmodSync(path, 0o755);
  }
  return folder;
}
