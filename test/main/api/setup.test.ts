import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELPER, setUpApi } from './harness';

const TOOLS = ['claude-code', 'codex', 'cursor', 'vscode', 'gemini-cli', 'windsurf', 'claude-desktop'];

describe('setup.status', () => {
  it('shows a card per agent tool: nothing detected or connected in a fresh home', async () => {
    const h = await setUpApi();
    const { tools } = await h.call('setup.status', {});
    expect(tools.map((t) => t.tool)).toEqual(TOOLS);
    expect(tools[0]).toEqual({
      tool: 'claude-code', label: 'Claude Code', available: true, detected: false, configured: false,
      configPath: join(h.home, '.claude.json'), note: null,
      // Not connected: the allow rule is not asked about yet, but where it would go is shown.
      toolsAllowed: false, allowSettingsPath: join(h.home, '.claude', 'settings.json'),
    });
  });

  it("explains a config file it cannot read", async () => {
    const h = await setUpApi();
    writeFileSync(join(h.home, '.claude.json'), '{ not json');
    const card = (await h.call('setup.status', {})).tools[0];
    expect(card).toMatchObject({ configured: false });
    expect(card.note).toContain('.claude.json');
  });
});

describe('setup.install and setup.uninstall', () => {
  it('writes the helper command (no secret), backs up an existing file, and removes only our entry', async () => {
    const h = await setUpApi();
    const file = join(h.home, '.claude.json');
    writeFileSync(file, JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'other-server' } } }));
    const installed = await h.call('setup.install', { tool: 'claude-code' });
    expect(installed).toEqual({ tool: expect.objectContaining({ tool: 'claude-code', configured: true, note: null }), backupPath: `${file}.letagents-backup`, allowBackupPath: null });
    const config = JSON.parse(readFileSync(file, 'utf8')) as { theme: string; mcpServers: Record<string, { command: string; args: string[] }> };
    expect(config.theme).toBe('dark');
    // The entry is the helper command and nothing else: no env, no token.
    expect(config.mcpServers.letagents).toEqual({ type: 'stdio', command: HELPER.command, args: HELPER.args });

    const removed = await h.call('setup.uninstall', { tool: 'claude-code' });
    expect(removed.tool.configured).toBe(false);
    expect(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: object }).mcpServers)).toEqual(['other']);
  });

  it('creates a missing config file with no backup', async () => {
    const h = await setUpApi();
    expect(await h.call('setup.install', { tool: 'codex' })).toMatchObject({ tool: { tool: 'codex', configured: true }, backupPath: null });
    expect(readFileSync(join(h.home, '.codex', 'config.toml'), 'utf8')).toContain('[mcp_servers.letagents]');
  });

  it('refuses an unknown tool, and leaves a malformed file as it was', async () => {
    const h = await setUpApi();
    expect(await h.fail('setup.install', { tool: 'emacs' })).toMatchObject({ code: 'invalid_input' });
    mkdirSync(join(h.home, '.cursor'), { recursive: true });
    const file = join(h.home, '.cursor', 'mcp.json');
    writeFileSync(file, '{ "mcpServers": [ }');
    const error = await h.fail('setup.install', { tool: 'cursor' });
    expect(error.code).toBe('config_malformed');
    expect(error.message).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": [ }');
    expect(existsSync(`${file}.letagents-backup`)).toBe(false);
    expect(await h.fail('setup.uninstall', { tool: 'vim' })).toMatchObject({ code: 'invalid_input' });
  });
});

describe('setup.snippet and setup.firstPrompt', () => {
  it('gives the exact snippet for manual set-up and where it goes', async () => {
    const h = await setUpApi();
    const json = await h.call('setup.snippet', { tool: 'cursor' });
    expect(json).toMatchObject({ tool: 'cursor', format: 'json' });
    expect(JSON.parse(json.text)).toEqual({ mcpServers: { letagents: { command: HELPER.command, args: HELPER.args } } });
    expect(json.instructions).toContain(join(h.home, '.cursor', 'mcp.json'));
    const toml = await h.call('setup.snippet', { tool: 'codex' });
    expect(toml.format).toBe('toml');
    expect(toml.text).toContain('[mcp_servers.letagents]');
    expect(await h.fail('setup.snippet', { tool: 'nano' })).toMatchObject({ code: 'invalid_input' });
  });

  it('gives the first prompt, for the repo room or a named room', async () => {
    const h = await setUpApi();
    expect((await h.call('setup.firstPrompt', {})).text).toContain('check_repo');
    await h.room('lab');
    expect((await h.call('setup.firstPrompt', { roomId: 'lab' })).text).toContain('Call join_room with name "lab".');
    expect(await h.fail('setup.firstPrompt', { roomId: 'nowhere' })).toEqual({ code: 'R3', message: 'Room not found.' });
  });
});
