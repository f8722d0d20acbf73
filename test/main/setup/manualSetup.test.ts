import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELPER, linuxSetup, LINUX_PATHS, read, writeFile } from './setupFixtures';

describe('manual set-up', () => {
  it('offers the exact snippet for each format', () => {
    const { home, service } = linuxSetup();
    expect(service.configSnippet('codex')).toEqual({
      toolId: 'codex',
      configPath: join(home, '.codex/config.toml'),
      format: 'toml',
      text: '[mcp_servers.letagents]\ncommand = "/usr/bin/node"\nargs = [ "/opt/letagents/bin/letagents-desktop.js", "mcp" ]\n',
    });
    expect(service.configSnippet('vscode')).toMatchObject({ format: 'json', text: JSON.stringify({ servers: { letagents: { type: 'stdio', ...HELPER } } }, null, 2) + '\n' });
    expect(JSON.parse(service.configSnippet('gemini-cli').text)).toEqual({ mcpServers: { letagents: HELPER } });
  });

  it('a pasted snippet counts as configured with the current command', async () => {
    const { home, service } = linuxSetup();
    writeFile(join(home, LINUX_PATHS.windsurf), service.configSnippet('windsurf').text);
    expect((await service.status()).find((s) => s.id === 'windsurf')).toMatchObject({ configured: true, entryMatches: true });
    expect(await service.connect('windsurf')).toMatchObject({ changed: false });
  });
});

describe('the first prompt', () => {
  it('tells the agent to join, register once with a fresh key and a codename, keep the worker_id, read the board and keep waiting', () => {
    const { service } = linuxSetup();
    const prompt = service.firstPrompt('github.com/acme/app');
    expect(prompt).toContain('Call join_room with name "github.com/acme/app".');
    for (const phrase of ['register_agent_session', 'fresh random registration_key', 'codename', 'Keep the worker_id', 'get_board', 'wait_for_messages', 'last_observed_message_id']) {
      expect(prompt).toContain(phrase);
    }
  });

  it('without a room hint, points the agent at the repo room', () => {
    const { service } = linuxSetup();
    expect(service.firstPrompt()).toContain('Call check_repo, then join_room with the repo room it reports');
    expect(service.firstPrompt('  \u0007 ')).toBe(service.firstPrompt());
  });
});

describe('files saved with a byte-order mark', () => {
  it('are edited after the mark, which stays', async () => {
    const { home, service } = linuxSetup();
    const file = join(home, LINUX_PATHS['claude-desktop']);
    writeFile(file, '\uFEFF{\n  "mcpServers": {}\n}\n');

    await service.connect('claude-desktop');
    expect((await service.status()).find((s) => s.id === 'claude-desktop')).toMatchObject({ configured: true, entryMatches: true });
    await service.disconnect('claude-desktop');

    expect(read(file)).toBe('\uFEFF{\n  "mcpServers": {}\n}\n');
  });
});
