import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSetupService } from '../../../src/main/setup/setupService';
import { HELPER, LINUX_PATHS, read, tempDir, TOOL_IDS, writeFile } from './setupFixtures';

const pathsOf = async (options: Parameters<typeof createSetupService>[0]) =>
  Object.fromEntries((await createSetupService(options).status()).map((s) => [s.id, s.configPath]));

describe('where each tool keeps its config', () => {
  it('on macOS', async () => {
    expect(await pathsOf({ home: '/Users/me', platform: 'darwin', env: {}, helperCommand: HELPER })).toEqual({
      'claude-code': '/Users/me/.claude.json',
      codex: '/Users/me/.codex/config.toml',
      cursor: '/Users/me/.cursor/mcp.json',
      vscode: '/Users/me/Library/Application Support/Code/User/mcp.json',
      'gemini-cli': '/Users/me/.gemini/settings.json',
      windsurf: '/Users/me/.codeium/windsurf/mcp_config.json',
      'claude-desktop': '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
    });
  });

  it('on Windows, using %APPDATA% for VS Code and Claude Desktop', async () => {
    const env = { APPDATA: 'D:\\Roaming' };
    expect(await pathsOf({ home: 'C:\\Users\\me', platform: 'win32', env, helperCommand: HELPER })).toEqual({
      'claude-code': 'C:\\Users\\me\\.claude.json',
      codex: 'C:\\Users\\me\\.codex\\config.toml',
      cursor: 'C:\\Users\\me\\.cursor\\mcp.json',
      vscode: 'D:\\Roaming\\Code\\User\\mcp.json',
      'gemini-cli': 'C:\\Users\\me\\.gemini\\settings.json',
      windsurf: 'C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json',
      'claude-desktop': 'D:\\Roaming\\Claude\\claude_desktop_config.json',
    });
    const fallback = await pathsOf({ home: 'C:\\Users\\me', platform: 'win32', env: {}, helperCommand: HELPER });
    expect(fallback.vscode).toBe('C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json');
  });

  it('on Linux, honouring XDG_CONFIG_HOME and CODEX_HOME', async () => {
    const plain = await pathsOf({ home: '/home/me', platform: 'linux', env: {}, helperCommand: HELPER });
    expect(plain).toEqual(Object.fromEntries(TOOL_IDS.map((id) => [id, `/home/me/${LINUX_PATHS[id]}`])));
    const moved = await pathsOf({ home: '/home/me', platform: 'linux', env: { XDG_CONFIG_HOME: '/cfg', CODEX_HOME: '/codex' }, helperCommand: HELPER });
    expect([moved.vscode, moved['claude-desktop'], moved.codex]).toEqual(['/cfg/Code/User/mcp.json', '/cfg/Claude/claude_desktop_config.json', '/codex/config.toml']);
  });

  it('connect writes to the macOS location (folders created)', async () => {
    const home = tempDir();
    const service = createSetupService({ home, platform: 'darwin', env: {}, helperCommand: HELPER });
    await service.connect('claude-desktop');
    await service.connect('vscode');
    expect(JSON.parse(read(join(home, 'Library/Application Support/Claude/claude_desktop_config.json'))).mcpServers.letagents).toEqual(HELPER);
    expect(JSON.parse(read(join(home, 'Library/Application Support/Code/User/mcp.json'))).servers.letagents).toEqual({ type: 'stdio', ...HELPER });
  });
});

describe('detecting installed tools', () => {
  const detected = async (home: string, env: NodeJS.ProcessEnv = { PATH: '' }) =>
    (await createSetupService({ home, platform: 'linux', env, helperCommand: HELPER }).status()).filter((s) => s.detected).map((s) => s.id);

  it('sees a tool by its config folder or state file', async () => {
    const home = tempDir();
    mkdirSync(join(home, '.codex'));
    mkdirSync(join(home, '.config/Code'), { recursive: true });
    mkdirSync(join(home, '.codeium/windsurf'), { recursive: true });
    writeFile(join(home, '.claude.json'), '{}');
    expect(await detected(home)).toEqual(['claude-code', 'codex', 'vscode', 'windsurf']);
  });

  it('sees a tool by an executable command on PATH, not by a plain file of that name', async () => {
    const home = tempDir();
    const bin = tempDir();
    const other = tempDir();
    writeFile(join(bin, 'gemini'), '#!/bin/sh\n');
    chmodSync(join(bin, 'gemini'), 0o755);
    writeFile(join(other, 'cursor'), 'not executable');
    chmodSync(join(other, 'cursor'), 0o644);
    expect(await detected(home, { PATH: `${other}:${bin}` })).toEqual(['gemini-cli']);
  });

  it('a tool that is not installed can still be connected (its folder is created)', async () => {
    const home = tempDir();
    const service = createSetupService({ home, platform: 'linux', env: { PATH: '' }, helperCommand: HELPER });
    await service.connect('windsurf');
    expect((await service.status()).find((s) => s.id === 'windsurf')).toMatchObject({ detected: true, configured: true });
  });
});
