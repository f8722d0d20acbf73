import { afterEach, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  REPO_CONFIG_MAX_LEVELS,
  PARSE_ERROR,
  SYMLINK_REFUSED,
  findRepoConfig,
  writeRepoConfig,
} from '../../../../src/main/domain/rooms/repoConfig';
import {
  gitCurrentBranch,
  gitDefaultBranch,
  gitOriginUrl,
  gitRepoRoot,
  readRepoContext,
} from '../../../../src/main/domain/git';

const dirs: string[] = [];
const tempDir = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'letagents-repo-')));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
  vi.restoreAllMocks();
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=trunk', ...args], {
    cwd,
    stdio: 'pipe',
  });

describe('.letagents.json', () => {
  it('is found in the working directory or any folder above it', () => {
    const root = tempDir();
    writeFileSync(join(root, '.letagents.json'), '{"room": "  github.com/o/r "}');
    const deep = join(root, 'a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    expect(findRepoConfig(deep)).toEqual({
      path: join(root, '.letagents.json'),
      room: 'github.com/o/r',
      contents: { room: 'github.com/o/r' },
    });
    expect(findRepoConfig(root)?.room).toBe('github.com/o/r');
  });

  it('the nearest file wins', () => {
    const root = tempDir();
    writeFileSync(join(root, '.letagents.json'), '{"room": "outer"}');
    mkdirSync(join(root, 'inner'));
    writeFileSync(join(root, 'inner', '.letagents.json'), '{"room": "inner", "other": 1}');
    expect(findRepoConfig(join(root, 'inner'))?.room).toBe('inner');
  });

  it('is searched at most 50 folders deep, the working directory included', () => {
    const root = tempDir();
    writeFileSync(join(root, '.letagents.json'), '{"room": "far"}');
    const parts = Array.from({ length: REPO_CONFIG_MAX_LEVELS }, (_, i) => `d${i}`);
    const atLimit = join(root, ...parts.slice(0, REPO_CONFIG_MAX_LEVELS - 1));
    const beyond = join(root, ...parts);
    mkdirSync(beyond, { recursive: true });
    expect(findRepoConfig(atLimit)?.room).toBe('far');
    expect(findRepoConfig(beyond)).toBeNull();
  });

  it.each([
    ['not json', '{room: nope', PARSE_ERROR],
    ['no room', '{"name": "x"}', { room: null }],
    ['empty room', '{"room": "   "}', { room: null }],
    ['room not a string', '{"room": 7}', { room: null }],
    ['room with a control character', '{"room": "a\\u0001b"}', { room: null }],
    ['an array', '["room"]', PARSE_ERROR],
  ])('a file with %s is reported but its room is ignored and logged', (_label, text, contents) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const root = tempDir();
    writeFileSync(join(root, '.letagents.json'), text);
    expect(findRepoConfig(root)).toEqual({ path: join(root, '.letagents.json'), room: null, contents });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('.letagents.json'));
  });

  it('shows only the parsed room field, never other fields or the text', () => {
    const root = tempDir();
    writeFileSync(join(root, '.letagents.json'), '{"room": "r", "aws_secret_access_key": "AKIA-SECRET"}');
    const config = findRepoConfig(root)!;
    expect(config).toEqual({ path: join(root, '.letagents.json'), room: 'r', contents: { room: 'r' } });
    expect(JSON.stringify(config)).not.toContain('AKIA-SECRET');
  });

  it('refuses a symlinked file (it could point at a credentials file) and reads nothing through it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const root = tempDir();
    const secrets = join(tempDir(), 'credentials.json');
    writeFileSync(secrets, '{"room": "looks-like-a-room", "token": "AKIA-SECRET"}');
    symlinkSync(secrets, join(root, '.letagents.json'));
    const config = findRepoConfig(root)!;
    expect(config).toEqual({ path: join(root, '.letagents.json'), room: null, contents: SYMLINK_REFUSED });
    expect(JSON.stringify(config)).not.toContain('AKIA');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('symbolic link'));
    // A dangling link too; and the link is still there for initialize_repo to respect (R8).
    const dangling = tempDir();
    symlinkSync(join(dangling, 'nowhere'), join(dangling, '.letagents.json'));
    expect(findRepoConfig(dangling)?.contents).toBe(SYMLINK_REFUSED);
  });

  it('does not read a file larger than 64 KiB, nor wait on a FIFO', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const root = tempDir();
    writeFileSync(join(root, '.letagents.json'), `{"room": "r", "pad": "${'x'.repeat(70 * 1024)}"}`);
    expect(findRepoConfig(root)).toEqual({ path: join(root, '.letagents.json'), room: null, contents: PARSE_ERROR });
    const fifo = tempDir();
    execFileSync('mkfifo', [join(fifo, '.letagents.json')]);
    expect(findRepoConfig(fifo)).toBeNull();
  });

  it('skips a folder that happens to be named .letagents.json', () => {
    const root = tempDir();
    writeFileSync(join(root, '.letagents.json'), '{"room": "outer"}');
    mkdirSync(join(root, 'child', '.letagents.json'), { recursive: true });
    expect(findRepoConfig(join(root, 'child'))?.path).toBe(join(root, '.letagents.json'));
  });

  it('is written at the root and never overwritten (R8)', () => {
    const root = tempDir();
    const path = writeRepoConfig(root, 'github.com/o/r');
    expect(path).toBe(join(root, '.letagents.json'));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ room: 'github.com/o/r' });
    expect(() => writeRepoConfig(root, 'other')).toThrow('.letagents.json already exists');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ room: 'github.com/o/r' });
  });
});

describe('git context', () => {
  it('reads root, origin, current branch and default branch from origin/HEAD', async () => {
    const root = tempDir();
    git(root, 'init', '-q');
    git(root, 'remote', 'add', 'origin', 'git@github.com:Owner/Repo.git');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
    git(root, 'update-ref', 'refs/remotes/origin/develop', 'HEAD');
    git(root, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/develop');
    git(root, 'checkout', '-q', '-b', 'feature/x');
    mkdirSync(join(root, 'sub'));
    expect(await readRepoContext(join(root, 'sub'))).toEqual({
      root,
      originUrl: 'git@github.com:Owner/Repo.git',
      currentBranch: 'feature/x',
      defaultBranch: 'develop',
    });
  });

  it('falls back to main or master when origin/HEAD is not set', async () => {
    const root = tempDir();
    git(root, 'init', '-q');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
    expect(await gitDefaultBranch(root)).toBeNull();
    git(root, 'branch', 'master');
    expect(await gitDefaultBranch(root)).toBe('master');
    git(root, 'branch', 'main');
    expect(await gitDefaultBranch(root)).toBe('main');
  });

  it('reports no branch on a detached HEAD and no origin without a remote', async () => {
    const root = tempDir();
    git(root, 'init', '-q');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
    git(root, 'checkout', '-q', '--detach');
    expect(await gitCurrentBranch(root)).toBeNull();
    expect(await gitOriginUrl(root)).toBeNull();
  });

  it('outside a repository, and in a folder that does not exist, everything is unknown', async () => {
    const outside = tempDir();
    expect(await gitRepoRoot(outside)).toBeNull();
    expect(await readRepoContext(outside)).toEqual({ root: null, originUrl: null, currentBranch: null, defaultBranch: null });
    expect(await gitRepoRoot(join(outside, 'missing'))).toBeNull();
  });

  it('shares one set of git runs among reads of one folder that overlap, and a later read looks again', async () => {
    const root = tempDir();
    git(root, 'init', '-q');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'first');
    // A git that notes each start, found first on PATH (the app looks git up on its PATH).
    const bin = tempDir();
    const log = join(bin, 'starts.log');
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho start >> '${log}'\nexec /usr/bin/git "$@"\n`, { mode: 0o755 });
    vi.stubEnv('PATH', `${bin}:${process.env.PATH}`);
    const starts = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    try {
      const fleet = await Promise.all(Array.from({ length: 20 }, () => readRepoContext(root)));
      expect(new Set(fleet.map((c) => c.currentBranch))).toEqual(new Set(['trunk']));
      const once = starts();
      expect(once).toBeLessThanOrEqual(8); // one read's runs (root, origin, branch, default branch's look-ups), not twenty reads' worth
      const branches = await Promise.all(Array.from({ length: 20 }, () => gitCurrentBranch(root)));
      expect(branches.every((b) => b === 'trunk')).toBe(true);
      expect(starts()).toBe(once + 1);
      git(root, 'checkout', '-q', '-b', 'feature');
      expect((await readRepoContext(root)).currentBranch).toBe('feature');
      expect(await gitCurrentBranch(root)).toBe('feature');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
