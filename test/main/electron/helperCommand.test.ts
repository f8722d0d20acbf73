import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagedHelperScript, resolveAppHelperCommand } from '../../../src/main/electron/helperCommand';
import { defaultDataDir } from '../../../src/main/paths';

const repoRoot = path.resolve(import.meta.dirname, '../../..');

describe('the helper command agent configs get from the desktop app', () => {
  it('runs the packaged app’s own executable on its unpacked CLI script, as Node', () => {
    const command = resolveAppHelperCommand({
      isPackaged: true,
      execPath: '/Applications/LetAgents.app/Contents/MacOS/LetAgents',
      resourcesPath: '/Applications/LetAgents.app/Contents/Resources',
      platform: 'darwin',
    });
    expect(command).toEqual({
      command: '/Applications/LetAgents.app/Contents/MacOS/LetAgents',
      args: ['/Applications/LetAgents.app/Contents/Resources/app.asar.unpacked/bin/letagents-desktop.js', 'mcp'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });

  it('names a non-default data folder, which agents could not find otherwise', () => {
    const dataDir = path.resolve('/tmp/letagents-elsewhere');
    const command = resolveAppHelperCommand({ isPackaged: true, execPath: '/opt/LetAgents/letagents', resourcesPath: '/opt/LetAgents/resources', dataDir });
    expect(command.args).toEqual(['/opt/LetAgents/resources/app.asar.unpacked/bin/letagents-desktop.js', 'mcp', '--data-dir', dataDir]);
    const usual = resolveAppHelperCommand({ isPackaged: true, execPath: '/opt/LetAgents/letagents', resourcesPath: '/opt/LetAgents/resources', dataDir: defaultDataDir(process.env) });
    expect(usual.args).toEqual(['/opt/LetAgents/resources/app.asar.unpacked/bin/letagents-desktop.js', 'mcp']);
  });

  it('uses Windows paths for the Windows app', () => {
    expect(packagedHelperScript('C:\\Program Files\\LetAgents\\resources', 'win32')).toBe(
      'C:\\Program Files\\LetAgents\\resources\\app.asar.unpacked\\bin\\letagents-desktop.js',
    );
  });

  it('runs the checkout’s bin/letagents-desktop.js with the Electron binary in development', () => {
    const command = resolveAppHelperCommand({ isPackaged: false, execPath: '/repo/node_modules/electron/dist/electron', resourcesPath: '/unused' });
    expect(command).toEqual({
      command: '/repo/node_modules/electron/dist/electron',
      args: [path.join(repoRoot, 'bin', 'letagents-desktop.js'), 'mcp'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
  });
});
