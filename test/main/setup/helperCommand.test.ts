import { randomBytes } from 'node:crypto';
import path, { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentTokenPath, defaultDataDir } from '../../../src/main/paths';
import { resolveDevHelperCommand } from '../../../src/main/setup/helperCommand';
import { createSetupService } from '../../../src/main/setup/setupService';
import { allFiles, existingConfig, LINUX_PATHS, tempDir, TOOL_IDS, writeFile } from './setupFixtures';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('the helper command written into agent configs', () => {
  it('runs this Node with the checkout’s bin/letagents-desktop.js mcp, with no data dir when it is the default', () => {
    expect(resolveDevHelperCommand()).toEqual({ command: process.execPath, args: [join(repoRoot, 'bin', 'letagents-desktop.js'), 'mcp'] });
    expect(resolveDevHelperCommand({ dataDir: defaultDataDir(process.env) }).args).toEqual([join(repoRoot, 'bin', 'letagents-desktop.js'), 'mcp']);
  });

  it('names a non-default data dir (absolute), since agents start the helper with their own environment', () => {
    const command = resolveDevHelperCommand({ dataDir: 'relative/data', execPath: '/opt/node' });
    expect(command).toEqual({ command: '/opt/node', args: [join(repoRoot, 'bin', 'letagents-desktop.js'), 'mcp', '--data-dir', path.resolve('relative/data')] });
  });

  it('no config file, backup or snippet ever holds the agent token', async () => {
    const dataDir = tempDir('letagents-data-');
    const token = randomBytes(32).toString('hex');
    writeFile(agentTokenPath(dataDir), token, 0o600);
    const helperCommand = resolveDevHelperCommand({ dataDir });
    expect(helperCommand.args).toContain(dataDir);
    const home = tempDir();
    const service = createSetupService({ home, platform: 'linux', env: { PATH: '' }, helperCommand });
    for (const id of TOOL_IDS) writeFile(join(home, LINUX_PATHS[id]), existingConfig(id));

    for (const id of TOOL_IDS) await service.connect(id);
    await service.disconnect('cursor');

    const written = allFiles(home);
    // Each config and its backup; Cursor, edited twice, keeps both earlier versions.
    expect(written.size).toBe(TOOL_IDS.length * 2 + 1);
    for (const [file, text] of written) {
      expect(text, file).not.toContain(token);
      expect(text, file).not.toMatch(/"env"|\.env\]/);
    }
    for (const id of TOOL_IDS) expect(service.configSnippet(id).text).not.toContain(token);
  });

  it('writes the helper\'s environment (ELECTRON_RUN_AS_NODE for the app executable) into every tool\'s entry', async () => {
    const home = tempDir();
    const helperCommand = { command: '/Applications/LetAgents.app/Contents/MacOS/LetAgents', args: ['/x/app.asar.unpacked/bin/letagents-desktop.js', 'mcp'], env: { ELECTRON_RUN_AS_NODE: '1' } };
    const service = createSetupService({ home, platform: 'linux', env: { PATH: '' }, helperCommand });
    for (const id of TOOL_IDS) await service.connect(id);
    for (const [file, text] of allFiles(home)) {
      if (file.endsWith('.toml')) expect(text, file).toMatch(/\[mcp_servers\.letagents\.env\][\s\S]*ELECTRON_RUN_AS_NODE = "1"/);
      else expect(text, file).toMatch(/"env": \{\s*"ELECTRON_RUN_AS_NODE": "1"\s*\}/);
      expect(text, file).toContain('ELECTRON_RUN_AS_NODE');
    }
    for (const id of TOOL_IDS) expect((await service.status()).find((t) => t.id === id)?.entryMatches, id).toBe(true);
  });
});
