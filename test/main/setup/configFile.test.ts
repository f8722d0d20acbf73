import { existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_SUFFIX, editConfigFile } from '../../../src/main/setup/configFile';
import { existingConfig, linuxSetup, LINUX_PATHS, read, tempDir, writeFile } from './setupFixtures';

describe('writing an agent config file', () => {
  it('edits the file behind a symlink and leaves the link in place', async () => {
    const { home, service } = linuxSetup();
    const dotfiles = tempDir();
    const real = join(dotfiles, 'codex.toml');
    writeFile(real, existingConfig('codex'));
    const link = join(home, LINUX_PATHS.codex);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(real, link);

    await service.connect('codex');

    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(real);
    expect(read(real)).toContain('[mcp_servers.letagents]');
    expect(read(link + BACKUP_SUFFIX)).toBe(existingConfig('codex'));
    expect(existsSync(real + BACKUP_SUFFIX)).toBe(false);
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
