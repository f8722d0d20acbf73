import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BACKUP_SUFFIX } from '../../../src/main/setup/configFile';
import {
  existingConfig,
  existingConfigConnected,
  HELPER,
  linuxSetup,
  LINUX_PATHS,
  malformedConfig,
  read,
  SERVERS_KEY,
  TOOL_IDS,
  WITH_STDIO_TYPE,
  writeFile,
} from './setupFixtures';

describe.each(TOOL_IDS)('connecting %s', (id) => {
  it('creates the config file, with its folders, holding only our entry', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);

    const result = await service.connect(id);

    expect(result).toEqual({ toolId: id, configPath: file, changed: true, backupPath: null, allowRule: null });
    if (id === 'codex') {
      expect(read(file)).toBe('[mcp_servers.letagents]\ncommand = "/usr/bin/node"\nargs = [ "/opt/letagents/bin/letagents-desktop.js", "mcp" ]\n');
    } else {
      const stdio = WITH_STDIO_TYPE[id] ? { type: 'stdio' } : {};
      expect(JSON.parse(read(file))).toEqual({ [SERVERS_KEY[id]]: { letagents: { ...stdio, ...HELPER } } });
    }
    expect(existsSync(file + BACKUP_SUFFIX)).toBe(false);
    const status = (await service.status()).find((s) => s.id === id);
    expect(status).toMatchObject({ configured: true, entryMatches: true, configPath: file, problem: null });
  });

  it('keeps the other servers, settings, comments and key order of an existing file, and backs it up', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);
    writeFile(file, existingConfig(id));

    const result = await service.connect(id);

    expect(read(file)).toBe(existingConfigConnected(id));
    expect(result.backupPath).toBe(file + BACKUP_SUFFIX);
    expect(read(file + BACKUP_SUFFIX)).toBe(existingConfig(id));
  });

  it('changes nothing the second time: same bytes, no new backup', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);
    writeFile(file, existingConfig(id));
    await service.connect(id);
    const once = read(file);
    writeFile(file + BACKUP_SUFFIX, 'the backup as the person left it');

    const again = await service.connect(id);

    expect(again.changed).toBe(false);
    expect(again.backupPath).toBeNull();
    expect(read(file)).toBe(once);
    expect(read(file + BACKUP_SUFFIX)).toBe('the backup as the person left it');
  });

  it('disconnect removes only our entry and gives back the file as it was', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);
    writeFile(file, existingConfig(id));
    await service.connect(id);

    const result = await service.disconnect(id);

    expect(result).toEqual({ toolId: id, configPath: file, changed: true, backupPath: file + BACKUP_SUFFIX, allowRule: null });
    expect(read(file)).toBe(existingConfig(id));
    expect(read(file + BACKUP_SUFFIX)).toBe(existingConfigConnected(id));
    expect((await service.status()).find((s) => s.id === id)).toMatchObject({ configured: false, entryMatches: false });
  });

  it('disconnect without a config file or without our entry writes nothing', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);
    expect(await service.disconnect(id)).toMatchObject({ changed: false, backupPath: null });
    expect(existsSync(file)).toBe(false);

    writeFile(file, existingConfig(id));
    expect(await service.disconnect(id)).toMatchObject({ changed: false, backupPath: null });
    expect(read(file)).toBe(existingConfig(id));
    expect(existsSync(file + BACKUP_SUFFIX)).toBe(false);
  });

  it('refuses a malformed file with a clear error, leaving the file and an existing backup untouched', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);
    const { text, problem } = malformedConfig(id);
    writeFile(file, text);
    writeFile(file + BACKUP_SUFFIX, 'an older good backup');
    const phrase = `${file} cannot be read: ${problem}. LetAgents left it unchanged; fix or remove it, then try again.`;

    await expect(service.connect(id)).rejects.toMatchObject({ code: 'config_malformed', message: phrase });
    await expect(service.disconnect(id)).rejects.toMatchObject({ code: 'config_malformed', message: phrase });

    expect(read(file)).toBe(text);
    expect(read(file + BACKUP_SUFFIX)).toBe('an older good backup');
    expect((await service.status()).find((s) => s.id === id)).toMatchObject({ configured: false, entryMatches: false, problem: phrase });
  });

  it('a malformed file gets no backup written at all', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);
    writeFile(file, malformedConfig(id).text);

    await expect(service.connect(id)).rejects.toMatchObject({ code: 'config_malformed' });

    expect(existsSync(file + BACKUP_SUFFIX)).toBe(false);
  });

  it('updates our entry when the helper command moved, keeping keys the person added to it', async () => {
    const home = linuxSetup().home;
    const file = join(home, LINUX_PATHS[id]);
    const before = linuxSetup(HELPER, home).service;
    await before.connect(id);
    const moved = { command: '/new/node', args: ['/new/bin/letagents-desktop.js', 'mcp'] };
    const after = linuxSetup(moved, home).service;
    expect((await after.status()).find((s) => s.id === id)).toMatchObject({ configured: true, entryMatches: false });
    // The person tuned our entry; that survives the update.
    const tuned = id === 'codex' ? read(file).replace('args =', 'startup_timeout_sec = 20\nargs =') : read(file).replace('"command"', '"timeout": 20,\n      "command"');
    writeFile(file, tuned);

    await after.connect(id);

    expect((await after.status()).find((s) => s.id === id)).toMatchObject({ configured: true, entryMatches: true });
    expect(read(file)).toContain('/new/bin/letagents-desktop.js');
    expect(read(file)).not.toContain('/opt/letagents');
    expect(read(file)).toMatch(id === 'codex' ? /startup_timeout_sec = 20/ : /"timeout": 20/);
  });

  it('keeps the file mode of an existing config (and gives the backup the same)', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS[id]);
    writeFile(file, existingConfig(id), 0o600);

    await service.connect(id);

    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(file + BACKUP_SUFFIX).mode & 0o777).toBe(0o600);
  });
});

describe('the set-up service', () => {
  it('lists all seven tools in screen order, none configured on an empty HOME', async () => {
    const { service } = linuxSetup();
    const status = await service.status();
    expect(status.map((s) => [s.id, s.name])).toEqual([
      ['claude-code', 'Claude Code'],
      ['codex', 'Codex'],
      ['cursor', 'Cursor'],
      ['vscode', 'VS Code'],
      ['gemini-cli', 'Gemini CLI'],
      ['windsurf', 'Windsurf'],
      ['claude-desktop', 'Claude Desktop'],
    ]);
    expect(status.every((s) => !s.detected && !s.configured && !s.entryMatches && s.problem === null)).toBe(true);
  });

  it('refuses an unknown tool', async () => {
    const { service } = linuxSetup();
    await expect(service.connect('notepad')).rejects.toMatchObject({ code: 'not_found', message: 'Agent tool "notepad" not found.' });
    expect(() => service.configSnippet('notepad')).toThrow('Agent tool "notepad" not found.');
  });

  it('refuses a helper command without a command', () => {
    expect(() => linuxSetup({ command: '', args: [] })).toThrow('The helper command must be a command and a list of string arguments.');
  });

  it('two connects at once leave one entry and one consistent file', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS.cursor);
    writeFile(file, existingConfig('cursor'));

    const results = await Promise.all([service.connect('cursor'), service.connect('cursor')]);

    expect(results.map((r) => r.changed)).toEqual([true, false]);
    expect(read(file)).toBe(existingConfigConnected('cursor'));
  });
});
