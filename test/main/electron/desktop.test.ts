import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCore } from '../../../src/main/core';
import { startDesktop, type DesktopOptions } from '../../../src/main/electron/desktop';
import type { ShellApi } from '../../../src/main/electron/shellApi';
import type { AppHost } from '../../../src/main/host';
import { startGateway } from '../../../src/main/gateway';
import { createMcpConnectionHandler } from '../../../src/main/mcp';
import { createMemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import { INVOKE_CHANNEL } from '../../../src/shared/bridge';
import { app, BrowserWindow, dialog, findMenuItem, ipcMain, Menu, Notification, powerMonitor, protocol, resetElectronMock, session, shell, Tray } from './electronMock';
import { agentSession, fakeApi, requestItem } from './fakeApi';

vi.mock('electron', () => import('./electronMock'));

let root: string;
let dataDir: string;

/**
 * vi.waitFor with 10 s instead of its 1 s default: quitting closes the app's store, gateway and
 * windows, and a loaded 2-core CI machine can take longer than 1 s; a state that holds ends it at once.
 */
const settled = (check: () => void) => vi.waitFor(check, { timeout: 10_000 });

beforeEach(() => {
  resetElectronMock();
  root = mkdtempSync(join(tmpdir(), 'la-desktop-'));
  dataDir = join(root, 'data');
  // A built app's layout: out/main (the entry), out/renderer (the page).
  mkdirSync(join(root, 'out', 'main'), { recursive: true });
  mkdirSync(join(root, 'out', 'renderer'), { recursive: true });
  writeFileSync(join(root, 'out', 'renderer', 'index.html'), '<!doctype html><div id="root"></div>');
});

afterEach(async () => {
  if (!app.quitted && app.exitCode === null) {
    app.quit();
    await settled(() => expect(app.quitted).toBe(true));
  }
  rmSync(root, { recursive: true, force: true });
});

async function launch(args: string[] = [], shellApi?: (host: AppHost) => ShellApi) {
  const options: DesktopOptions = {
    argv: ['/opt/LetAgents/letagents', ...args, '--data-dir', dataDir],
    mainDir: join(root, 'out', 'main'),
    env: { PATH: process.env.PATH },
    appOptions: { secrets: createMemorySecretStore(), home: join(root, 'home') },
    shellApi,
  };
  const desktop = startDesktop(options);
  app.becomeReady();
  const started = await desktop.ready;
  return { desktop, started };
}

/** A scripted app API with agents online (or not), and the host it stands in for. */
function worldApi(options: { online: boolean }) {
  const world = fakeApi({ sessions: [agentSession('Juniper', options.online)] });
  let host: AppHost | null = null;
  const build = (started: AppHost) => {
    host = started;
    return world.api;
  };
  return { ...world, build, host: () => host! };
}

const onlyWindow = () => {
  expect(BrowserWindow.instances).toHaveLength(1);
  return BrowserWindow.instances[0];
};

describe('starting the desktop app', () => {
  it('hosts the agent gateway for its data folder, which is also its single-instance folder', async () => {
    const { started, desktop } = await launch();
    expect(started).toBe(true);
    expect(desktop.dataDir).toBe(dataDir);
    expect(app.paths.get('userData')).toBe(dataDir);
    expect(existsSync(join(dataDir, 'letagents.db'))).toBe(true);
    expect(existsSync(join(dataDir, 'agent.sock'))).toBe(true);
    expect(existsSync(join(dataDir, 'agent-token'))).toBe(true);
  });

  it('opens its window on the app page through app://, and shows it once painted', async () => {
    await launch();
    const window = onlyWindow();
    expect(window.loadedUrl).toBe('app://letagents/index.html');
    expect(window.options).toMatchObject({ show: false, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, spellcheck: false, preload: join(root, 'out', 'preload', 'index.cjs') } });
    expect(window.visible).toBe(false);
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
    expect(window.focused).toBe(true);
  });

  it('installs the scheme, the page protocol, the permission handlers, the guards, the IPC bridge, the menu and the tray', async () => {
    await launch();
    expect(protocol.privileged).toEqual([expect.objectContaining({ scheme: 'app' })]);
    expect([...session.defaultSession.protocol.handlers.keys()]).toEqual(['app']);
    expect(session.defaultSession.permissionRequestHandler).toBeTypeOf('function');
    expect(session.defaultSession.permissionCheckHandler).toBeTypeOf('function');
    expect(session.defaultSession.devicePermissionHandler).toBeTypeOf('function');
    expect(session.defaultSession.spellCheckerEnabled).toBe(false);
    expect(onlyWindow().webContents.windowOpenHandler).toBeTypeOf('function');
    expect(onlyWindow().webContents.listenerCount('will-navigate')).toBe(1);
    expect([...ipcMain.handlers.keys()]).toEqual([INVOKE_CHANNEL]);
    expect(findMenuItem(Menu.applicationMenu!.template, 'diagnostics')).toBeDefined();
    expect(Tray.instances).toHaveLength(1);
    expect(Tray.instances[0].image.path).toBe(join(root, 'build', 'icons', 'tray.png'));
    const page = await session.defaultSession.protocol.handlers.get('app')!(new Request('app://letagents/index.html'));
    expect(await page.text()).toContain('<div id="root"></div>');
  });

  it('starts hidden in the tray with --background; the tray opens the window', async () => {
    await launch(['--background']);
    expect(BrowserWindow.instances).toEqual([]);
    expect(Tray.instances).toHaveLength(1);
    findMenuItem(Tray.instances[0].menu!.template, 'open')!.click!();
    const window = onlyWindow();
    window.emit('ready-to-show');
    expect(window.visible).toBe(true);
  });

  it('writes the Electron-run helper into agent configs', async () => {
    const world = worldApi({ online: false });
    await launch([], world.build);
    const snippet = world.host().app.setup.configSnippet('cursor').text;
    expect(snippet).toContain(JSON.stringify(process.execPath).slice(1, -1));
    expect(snippet).toContain('letagents-desktop.js');
    expect(snippet).toContain(dataDir);
  });
});

describe('the window and the app API', () => {
  const fromWindow = (window: InstanceType<typeof BrowserWindow>) => ({ sender: window.webContents, senderFrame: { url: 'app://letagents/index.html', parent: null } });
  const call = (window: InstanceType<typeof BrowserWindow>, method: string, input: unknown = {}) =>
    ipcMain.handlers.get(INVOKE_CHANNEL)!(fromWindow(window), method, input) as Promise<{ ok: boolean; value?: unknown; error?: unknown }>;

  it('answers the window’s calls from the real app API, as the Electron host', async () => {
    await launch();
    const info = await call(onlyWindow(), 'app.info');
    expect(info).toMatchObject({ ok: true, value: { host: 'electron' } });
    expect(await call(onlyWindow(), 'rooms.list')).toEqual({ ok: true, value: [] });
  });

  it('looks at scheduled automations again when the computer wakes, until it quits', async () => {
    let host: AppHost | null = null;
    await launch([], (started) => ((host = started), { dispatch: started.dispatch, subscribe: started.subscribe }));
    const recheck = vi.spyOn(host!.app.automations, 'recheck');
    powerMonitor.emit('resume');
    expect(recheck).toHaveBeenCalledTimes(1);
    app.quit();
    await settled(() => expect(app.quitted).toBe(true));
    expect(powerMonitor.listenerCount('resume')).toBe(0);
  });

  it('opens https: links the page asks for in the system browser, and nothing else', async () => {
    await launch();
    expect(await call(onlyWindow(), 'app.openExternal', { url: 'https://github.com/login/device' })).toEqual({ ok: true, value: { opened: true } });
    expect(shell.openExternal).toHaveBeenCalledWith('https://github.com/login/device', { activate: true });
    expect((await call(onlyWindow(), 'app.openExternal', { url: 'file:///etc/passwd' })).ok).toBe(false);
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
  });

  it('opens the data folder in the file manager', async () => {
    await launch();
    expect(await call(onlyWindow(), 'app.openDataFolder')).toEqual({ ok: true, value: { opened: true } });
    expect(shell.openPath).toHaveBeenCalledWith(dataDir);
  });

  it('"Check diagnostics" shows the doctor checks of the running app', async () => {
    await launch();
    findMenuItem(Menu.applicationMenu!.template, 'diagnostics')!.click!();
    await settled(() => expect(dialog.showMessageBox).toHaveBeenCalledTimes(1));
    const [, options] = dialog.showMessageBox.mock.calls[0] as [unknown, { detail: string }];
    expect(options.detail).toContain(`Data folder: ${dataDir}`);
    expect(options.detail).toMatch(/\[ok\] Data folder: /);
    expect(options.detail).toContain('Agent configs:');
  });
});

describe('one app per data folder', () => {
  it('a second launch hands over to the running app and quits without starting a core', async () => {
    app.lockGranted = false;
    const { started } = await launch();
    expect(started).toBe(false);
    expect(app.quitRequests).toBe(1);
    expect(BrowserWindow.instances).toEqual([]);
    expect(existsSync(join(dataDir, 'letagents.db'))).toBe(false);
  });

  it('the running app focuses its window when launched again', async () => {
    await launch();
    const window = onlyWindow();
    window.emit('ready-to-show');
    window.hide();
    window.minimized = true;
    app.emit('second-instance', {}, ['/opt/LetAgents/letagents'], root);
    expect(window.visible).toBe(true);
    expect(window.focused).toBe(true);
    expect(window.minimized).toBe(false);
  });

  it('a second launch in the background (by an agent’s helper) does not pop the window up', async () => {
    await launch();
    const window = onlyWindow();
    window.emit('ready-to-show');
    window.hide();
    app.emit('second-instance', {}, ['/opt/LetAgents/letagents', '--background'], root);
    expect(window.visible).toBe(false);
  });

  it('a second launch opens the window of an app started in the background', async () => {
    await launch(['--background']);
    app.emit('second-instance', {}, ['/opt/LetAgents/letagents'], root);
    onlyWindow().emit('ready-to-show');
    expect(onlyWindow().visible).toBe(true);
  });

  it('says why it cannot start when `serve` already runs for the folder', async () => {
    const other = createCore({ dataDir });
    const gateway = await startGateway({ dataDir, handler: createMcpConnectionHandler(other), http: false });
    try {
      const { started } = await launch();
      expect(started).toBe(false);
      expect(dialog.showErrorBox).toHaveBeenCalledWith('LetAgents cannot start', expect.stringContaining('already running for this data folder'));
      expect(app.exitCode).toBe(3);
      expect(BrowserWindow.instances).toEqual([]);
    } finally {
      await gateway.close();
      await other.close();
    }
  });
});

describe('a start that fails', () => {
  it('says why, and leaves no agent socket behind, when the built page is missing', async () => {
    rmSync(join(root, 'out', 'renderer'), { recursive: true });
    const { started } = await launch();
    expect(started).toBe(false);
    expect(dialog.showErrorBox).toHaveBeenCalledWith('LetAgents cannot start', expect.stringContaining('renderer'));
    expect(app.exitCode).toBe(1);
    expect(existsSync(join(dataDir, 'agent.sock'))).toBe(false);
  });
});

describe('closing and quitting', () => {
  it('quits once, cleanly, when asked again while stopping', async () => {
    await launch();
    app.quit();
    app.quit();
    app.emit('window-all-closed');
    await settled(() => expect(app.quitted).toBe(true));
    expect(Tray.instances[0].destroyed).toBe(true);
    expect(existsSync(join(dataDir, 'agent.sock'))).toBe(false);
  });

  it('closing the window keeps the app in the tray while agents are connected', async () => {
    const world = worldApi({ online: true });
    await launch([], world.build);
    await settled(() => expect(findMenuItem(Tray.instances[0].menu!.template, 'agents')!.label).toBe('1 agent online'));
    const window = onlyWindow();
    window.emit('ready-to-show');
    expect(window.userCloses()).toBe(false);
    expect(window.visible).toBe(false);
    expect(app.quitRequests).toBe(0);
    expect(existsSync(join(dataDir, 'agent.sock'))).toBe(true);
  });

  it('closing the window with no agent connected quits, and the core closes cleanly', async () => {
    const world = worldApi({ online: false });
    await launch([], world.build);
    await settled(() => expect(findMenuItem(Tray.instances[0].menu!.template, 'agents')!.label).toBe('No agents online'));
    expect(onlyWindow().userCloses()).toBe(true);
    await settled(() => expect(app.quitted).toBe(true));
    expect(existsSync(join(dataDir, 'agent.sock'))).toBe(false);
    expect(Tray.instances[0].destroyed).toBe(true);
    expect(ipcMain.handlers.size).toBe(0);
    // The database was closed: another core opens it at once.
    await createCore({ dataDir }).close();
  });

  it('Quit from the tray stops the shell, the gateway and the core, even with agents online', async () => {
    const world = worldApi({ online: true });
    await launch([], world.build);
    findMenuItem(Tray.instances[0].menu!.template, 'quit')!.click!();
    await settled(() => expect(app.quitted).toBe(true));
    expect(existsSync(join(dataDir, 'agent.sock'))).toBe(false);
    expect(onlyWindow().destroyed).toBe(true);
    expect(world.listeners.size).toBe(0);
  });
});

describe('tray and notifications of the running app', () => {
  it('a notification for a new item opens the window on it when clicked', async () => {
    const world = worldApi({ online: true });
    await launch(['--background'], world.build);
    await settled(() => expect(findMenuItem(Tray.instances[0].menu!.template, 'agents')!.label).toBe('1 agent online'));
    world.state.needsYou = [requestItem(5, 'Juniper', 'Ship it?')];
    world.emit({ type: 'needsYou.changed', roomId: 'github.com/ada/app' });
    await settled(() => expect(Notification.instances.map((n) => n.options.title)).toEqual(['Juniper needs you']));
    expect(findMenuItem(Tray.instances[0].menu!.template, 'needsYou')!.label).toBe('Needs you: 1');
    expect(app.badgeCount).toBe(1);
    Notification.instances[0].emit('click');
    const window = onlyWindow();
    window.emit('ready-to-show');
    window.webContents.finishLoad();
    expect(window.visible).toBe(true);
    expect(window.webContents.sent.map((m) => m.payload)).toContainEqual({ type: 'app.open', route: { view: 'needsYou' } });
  });

  it('Settings… in the menu opens the settings view in the window', async () => {
    await launch();
    const window = onlyWindow();
    window.webContents.finishLoad();
    findMenuItem(Menu.applicationMenu!.template, 'settings')!.click!();
    expect(window.webContents.sent.map((m) => m.payload)).toContainEqual({ type: 'app.open', route: { view: 'settings' } });
  });
});
