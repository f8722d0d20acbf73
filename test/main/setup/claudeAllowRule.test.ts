// Connect for Claude Code, with the person's consent, also lets it use LetAgents' tools without
// asking in its terminal (issue 35 item 3): `mcp__letagents__*` in `permissions.allow` of
// ~/.claude/settings.json, kept beside everything else there and backed up; Disconnect takes it
// out again. The REAL Claude Code (against a fake model) shows what the rule changes: a headless
// run without --allowedTools is denied our tools without it, and calls them with it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLAUDE_ALLOW_RULE } from '../../../src/main/setup/allowRule';
import { BACKUP_SUFFIX } from '../../../src/main/setup/configFile';
import { resolveDevHelperCommand } from '../../../src/main/setup/helperCommand';
import { createSetupService } from '../../../src/main/setup/setupService';
import { cleanupSpawned, ensureCliBuilt, startServe, tempDir as trackedTempDir, track } from '../../support';
import { callTool, say, startFakeModel } from '../../support/fakeModels';
import { CLI_BIN } from '../agents/managedApp';
import { allFiles, linuxSetup, read, writeFile } from './setupFixtures';

afterAll(cleanupSpawned);

const SETTINGS = '.claude/settings.json';

describe("Claude Code's allow rule for LetAgents' tools", () => {
  it('Connect with allowTools writes the rule into a new settings file; without it the settings are not touched', async () => {
    const { home, service } = linuxSetup();
    const plain = await service.connect('claude-code');
    expect(plain.allowRule).toBeNull();
    expect(existsSync(join(home, SETTINGS))).toBe(false);
    expect((await service.status()).find((s) => s.id === 'claude-code')).toMatchObject({ toolsAllowed: false, allowSettingsPath: join(home, SETTINGS) });

    const allowed = await service.connect('claude-code', { allowTools: true });
    expect(allowed.allowRule).toEqual({ path: join(home, SETTINGS), changed: true, backupPath: null });
    expect(JSON.parse(read(join(home, SETTINGS)))).toEqual({ permissions: { allow: ['mcp__letagents__*'] } });
    expect((await service.status()).find((s) => s.id === 'claude-code')?.toolsAllowed).toBe(true);
    // Other tools have no such setting.
    expect((await service.status()).find((s) => s.id === 'codex')).toMatchObject({ toolsAllowed: null, allowSettingsPath: null });
  });

  it("keeps the person's settings, rules and comments, backs the file up, changes nothing the second time, and Disconnect removes only our rule", async () => {
    const { home, service } = linuxSetup();
    const file = join(home, SETTINGS);
    const before = [
      '{',
      '  // my own rules',
      '  "model": "opus",',
      '  "permissions": {',
      '    "allow": ["Bash(npm run test:*)", "Read"],',
      '    "deny": ["Bash(curl:*)"]',
      '  }',
      '}',
      '',
    ].join('\n');
    writeFile(file, before);

    const change = await service.connect('claude-code', { allowTools: true });
    const after = read(file);
    expect(after).toBe(before.replace('"Read"]', `"Read", "${CLAUDE_ALLOW_RULE}"]`));
    expect(change.allowRule).toEqual({ path: file, changed: true, backupPath: file + BACKUP_SUFFIX });
    expect(read(file + BACKUP_SUFFIX)).toBe(before);

    expect((await service.connect('claude-code', { allowTools: true })).allowRule).toEqual({ path: file, changed: false, backupPath: null });
    expect(read(file)).toBe(after);

    const gone = await service.disconnect('claude-code');
    expect(gone.allowRule?.changed).toBe(true);
    expect(read(file)).toBe(before);
    expect((await service.status()).find((s) => s.id === 'claude-code')).toMatchObject({ configured: false, toolsAllowed: false });
  });

  it.each([
    ['a list on lines of its own', '{\n  "permissions": {\n    "allow": [\n      "Read",\n      "Edit"\n    ]\n  }\n}\n', '{\n  "permissions": {\n    "allow": [\n      "Read",\n      "Edit",\n      "mcp__letagents__*"\n    ]\n  }\n}\n'],
    ['an empty list', '{ "permissions": { "allow": [] } }\n', '{ "permissions": { "allow": ["mcp__letagents__*"] } }\n'],
    ['no permissions yet', '{\n  "model": "opus"\n}\n', '{\n  "model": "opus",\n  "permissions": {\n    "allow": [\n      "mcp__letagents__*"\n    ]\n  }\n}\n'],
  ])('adds the rule to %s in the same style, and Disconnect takes out only the rule', async (_, before, after) => {
    const { home, service } = linuxSetup();
    const file = join(home, SETTINGS);
    writeFile(file, before);
    await service.connect('claude-code', { allowTools: true });
    expect(read(file)).toBe(after);
    await service.disconnect('claude-code');
    expect(JSON.parse(read(file)).permissions.allow).toEqual(JSON.parse(before).permissions?.allow ?? []);
  });

  it('a settings file it cannot read refuses Connect, naming the file, and nothing at all is written', async () => {
    const { home, service } = linuxSetup();
    writeFile(join(home, SETTINGS), '{ "permissions": { "allow": "everything" } }\n');
    const files = allFiles(home);
    await expect(service.connect('claude-code', { allowTools: true })).rejects.toThrow(`${join(home, SETTINGS)} cannot be read: "permissions.allow" is not a list.`);
    expect(allFiles(home)).toEqual(files);
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
    // Its status says it cannot tell; a plain Connect still works and leaves the file alone.
    expect((await service.status()).find((s) => s.id === 'claude-code')?.toolsAllowed).toBeNull();
    await service.connect('claude-code');
    expect(read(join(home, SETTINGS))).toBe('{ "permissions": { "allow": "everything" } }\n');
  });
});

describe("the real Claude Code 2.1.332 in headless mode, without --allowedTools (fake model)", () => {
  /** Connects Claude Code in a fresh HOME (with or without the rule) and runs one `claude -p` whose model calls join_room. */
  async function runClaude(allowTools: boolean): Promise<Array<Record<string, unknown>>> {
    await ensureCliBuilt();
    const home = trackedTempDir('la-allow-home-');
    const model = await startFakeModel('claude_code', home);
    const serve = await startServe();
    try {
      const service = createSetupService({ home, platform: 'linux', env: {}, helperCommand: resolveDevHelperCommand({ dataDir: serve.dataDir }) });
      await service.connect('claude-code', { allowTools });
      model.script.push(null, callTool('join_room', { name: 'allow-room' }), say('Joined.'));
      const stdout = await new Promise<string>((resolve, reject) => {
        const child = track(
          spawn(join(CLI_BIN, 'claude'), ['-p', 'Join the room allow-room.', '--output-format', 'stream-json', '--verbose'], {
            cwd: trackedTempDir('la-allow-work-'),
            env: { ...process.env, ...model.env, HOME: home },
            stdio: ['ignore', 'pipe', 'pipe'],
          }),
        );
        let out = '';
        child.stdout!.on('data', (d) => (out += d));
        child.once('error', reject);
        child.once('close', () => resolve(out));
      });
      return stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    } finally {
      await serve.stop();
      await model.close();
    }
  }

  const toolResults = (events: Array<Record<string, unknown>>) =>
    events.flatMap((e) => ((e.message as { content?: Array<{ type: string; content?: unknown; is_error?: boolean }> } | undefined)?.content ?? []).filter((c) => c.type === 'tool_result'));

  it('is denied our tools without the rule, and calls them with it', async () => {
    const denied = await runClaude(false);
    expect(denied.find((e) => e.subtype === 'permission_denied')).toMatchObject({ tool_name: 'mcp__letagents__join_room' });
    expect(toolResults(denied)).toEqual([expect.objectContaining({ is_error: true, content: "Claude requested permissions to use mcp__letagents__join_room, but you haven't granted it yet." })]);

    const allowed = await runClaude(true);
    expect(allowed.some((e) => e.subtype === 'permission_denied')).toBe(false);
    const [result] = toolResults(allowed);
    expect(result.is_error).toBeFalsy();
    expect(String(result.content)).toContain('"room_id":"allow-room"');
  }, 120_000);
});
