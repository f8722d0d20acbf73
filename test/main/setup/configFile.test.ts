import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_SUFFIX, editConfigFile } from '../../../src/main/setup/configFile';
import { existingConfig, linuxSetup, LINUX_PATHS, read, tempDir, writeFile } from './setupFixtures';

describe('writing an agent config file', () => {
  // A dotfiles link to a file that exists, and one (dangling) to a file not created yet.
  it.each([
    ['an existing file', true],
    ['a file not there yet (a dangling link)', false],
  ])('edits %s behind a symlink and leaves the link in place', async (_what, exists) => {
    const { home, service } = linuxSetup();
    const real = join(tempDir(), 'dotfiles', 'codex.toml');
    if (exists) writeFile(real, existingConfig('codex'));
    const link = join(home, LINUX_PATHS.codex);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(real, link);

    await service.connect('codex');

    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(read(real)).toContain('[mcp_servers.letagents]');
    if (exists) expect(read(link + BACKUP_SUFFIX)).toBe(existingConfig('codex'));
    else expect(existsSync(link + BACKUP_SUFFIX)).toBe(false);
    expect(existsSync(real + BACKUP_SUFFIX)).toBe(false);
  });

  it('rewrites a hard-linked file in place, so every link sees the new text', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS.cursor);
    writeFile(file, existingConfig('cursor'));
    const other = join(tempDir(), 'mcp.json');
    linkSync(file, other);
    const inode = statSync(file).ino;

    await service.connect('cursor');

    expect(statSync(file).ino).toBe(inode);
    expect(statSync(file).nlink).toBe(2);
    expect(read(other)).toBe(read(file));
    expect(read(other)).toContain('letagents');
    expect(read(file + BACKUP_SUFFIX)).toBe(existingConfig('cursor'));
  });

  it('keeps the last three backups of a file and no more', async () => {
    const file = join(tempDir(), 'settings.json');
    writeFile(file, 'v0');
    for (let v = 1; v <= 5; v++) await editConfigFile(file, () => `v${v}`);
    expect(read(file)).toBe('v5');
    expect(readdirSync(dirname(file)).filter((name) => name !== basename(file)).sort()).toEqual([
      `settings.json${BACKUP_SUFFIX}`, `settings.json${BACKUP_SUFFIX}.1`, `settings.json${BACKUP_SUFFIX}.2`,
    ]);
    expect([read(file + BACKUP_SUFFIX), read(`${file}${BACKUP_SUFFIX}.1`), read(`${file}${BACKUP_SUFFIX}.2`)]).toEqual(['v4', 'v3', 'v2']);
  });

  it('refuses a loop of symbolic links with a clear error, writing nothing', async () => {
    const dir = tempDir();
    symlinkSync(join(dir, 'b.json'), join(dir, 'a.json'));
    symlinkSync(join(dir, 'a.json'), join(dir, 'b.json'));
    await expect(editConfigFile(join(dir, 'a.json'), () => 'x')).rejects.toMatchObject({ code: 'config_unsupported', message: expect.stringContaining('chain of more than 40 symbolic links') });
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
  });

  it('redoes the edit on the new text when the tool saves the file meanwhile, so its change is not lost', async () => {
    const file = join(tempDir(), 'settings.json');
    writeFile(file, 'first');
    const seen: (string | null)[] = [];

    const result = await editConfigFile(file, (text) => {
      seen.push(text);
      if (seen.length === 1) writeFileSync(file, 'saved by the tool');
      return `${text} + ours`;
    });

    expect(seen).toEqual(['first', 'saved by the tool']);
    expect(read(file)).toBe('saved by the tool + ours');
    expect(read(file + BACKUP_SUFFIX)).toBe('saved by the tool');
    expect(result).toEqual({ changed: true, backupPath: file + BACKUP_SUFFIX });
  });

  it('gives up with a clear error when the file never stops changing, writing nothing of ours', async () => {
    const file = join(tempDir(), 'settings.json');
    writeFile(file, '0');
    let saves = 0;

    await expect(
      editConfigFile(file, (text) => {
        writeFileSync(file, String(++saves));
        return `${text} + ours`;
      }),
    ).rejects.toMatchObject({ code: 'config_busy', message: `${file} kept changing while LetAgents was editing it. Try again.` });

    expect(read(file)).toBe('3');
    expect(existsSync(file + BACKUP_SUFFIX)).toBe(false);
  });

  it('an edit that refuses leaves no temp file behind', async () => {
    const dir = tempDir();
    const file = join(dir, 'mcp.json');
    await expect(editConfigFile(file, () => { throw new TypeError('refused'); })).rejects.toThrow('refused');
    expect(readdirSync(dir)).toEqual([]);
  });
});
