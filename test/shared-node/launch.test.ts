import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appLaunchCommand } from '../../src/shared-node/launch';

describe('the app a helper starts when none runs', () => {
  it('is `serve` when the helper runs on plain Node, exiting after 10 quiet minutes', () => {
    // The agent's folder (the helper's PWD) stays behind: the app runs in the home folder.
    const env = { PATH: '/bin', PWD: '/work/agent-folder' };
    expect(appLaunchCommand('/data', { execPath: '/usr/bin/node', script: '/repo/bin/letagents-desktop.js', versions: { node: '22.0.0' }, env, home: '/home/ada' })).toEqual({
      command: '/usr/bin/node',
      args: ['/repo/bin/letagents-desktop.js', 'serve', '--data-dir', '/data', '--idle-exit', '600'],
      env: { PATH: '/bin', PWD: '/home/ada', LETAGENTS_STARTED_BY_HELPER: '1' },
      cwd: '/home/ada',
    });
  });

  it('is the installed desktop app, hidden in the tray, when the helper runs inside it', () => {
    const launch = appLaunchCommand('/data', {
      execPath: '/opt/LetAgents/letagents',
      script: '/opt/LetAgents/resources/app.asar.unpacked/bin/letagents-desktop.js',
      versions: { node: '22.0.0', electron: '45.5.0' },
      env: { PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' },
      home: '/home/ada',
    });
    // Without ELECTRON_RUN_AS_NODE the executable starts as the app, not as Node.
    expect(launch).toEqual({ command: '/opt/LetAgents/letagents', args: ['--background', '--data-dir', '/data'], env: { PATH: '/bin', PWD: '/home/ada', LETAGENTS_STARTED_BY_HELPER: '1' }, cwd: '/home/ada' });
  });

  it('finds a packaged Windows app by its unpacked folder too', () => {
    const launch = appLaunchCommand('C:\\data', {
      execPath: 'C:\\Program Files\\LetAgents\\LetAgents.exe',
      script: 'C:\\Program Files\\LetAgents\\resources\\app.asar.unpacked\\bin\\letagents-desktop.js',
      versions: { electron: '45.5.0' },
      env: { ELECTRON_RUN_AS_NODE: '1' },
      home: 'C:\\Users\\ada',
    });
    expect(launch.args).toEqual(['--background', '--data-dir', 'C:\\data']);
  });

  it('is the checkout’s Electron app when a development Electron runs the helper', () => {
    const launch = appLaunchCommand('/data', {
      execPath: '/repo/node_modules/electron/dist/electron',
      script: '/repo/bin/letagents-desktop.js',
      versions: { electron: '45.5.0' },
      env: { ELECTRON_RUN_AS_NODE: '1' },
      home: '/home/ada',
    });
    expect(launch).toEqual({
      command: '/repo/node_modules/electron/dist/electron',
      args: [path.dirname('/repo/bin'), '--background', '--data-dir', '/data'],
      env: { PWD: '/home/ada', LETAGENTS_STARTED_BY_HELPER: '1' },
      cwd: '/home/ada',
    });
  });
});
