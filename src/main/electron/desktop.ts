// The desktop app: starts the same app host as `serve` (core, app API, agent socket and
// HTTP /mcp; no browser UI), then the shell around it: window, IPC bridge, tray,
// notifications and menu. Quitting stops the shell, then the gateway, then closes the core.
import { app, dialog, ipcMain, powerMonitor, protocol, session, shell } from 'electron';
import type { AppOptions } from '../app';
import type { ApiHost } from '../api';
import { AppAlreadyRunningError } from '../gateway';
import { startAppHost, type AppHost } from '../host';
import { resolveDataDir } from '../paths';
import { idleExitSeconds } from '../../shared-node/protocol';
import { installAppProtocol, registerAppScheme } from './appProtocol';
import { showDiagnostics } from './diagnostics';
import { openExternalSafely } from './externalLinks';
import { resolveAppHelperCommand } from './helperCommand';
import { installIpcBridge, type IpcBridge } from './ipcBridge';
import { parseLaunchOptions } from './launchOptions';
import { MainWindow } from './mainWindow';
import { installAppMenu } from './menu';
import { NeedsYouNotifier } from './notifications';
import { openMessage, type OpenTarget } from './openTarget';
import { shellResources } from './resources';
import type { ShellApi } from './shellApi';
import { ShellStatus } from './shellStatus';
import { claimSingleInstance } from './singleInstance';
import { TrayPresence } from './tray';
import { guardSession } from './webGuards';

export interface DesktopOptions {
  readonly argv: readonly string[];
  /** The folder of the built main entry (out/main). */
  readonly mainDir: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The API the shell reads and the window calls; default: the host's own (tests give a scripted one). */
  readonly shellApi?: (host: AppHost) => ShellApi;
  /** Passed on to createApp (tests: an in-memory secret store, a temp home). */
  readonly appOptions?: Partial<Omit<AppOptions, 'dataDir' | 'helperCommand'>>;
}

export interface Desktop {
  readonly dataDir: string;
  /** Resolves once the core, gateway and shell run (false when this launch handed over or failed). */
  readonly ready: Promise<boolean>;
}

interface Running {
  readonly host: AppHost;
  readonly status: ShellStatus;
  readonly notifier: NeedsYouNotifier;
  readonly bridge: IpcBridge;
  readonly tray: TrayPresence;
  readonly window: MainWindow;
  /** Stops following the system's power events. */
  readonly stopPower: () => void;
}

export function startDesktop(options: DesktopOptions): Desktop {
  const env = options.env ?? process.env;
  const launch = parseLaunchOptions(options.argv);
  const dataDir = resolveDataDir(launch.dataDir, env);
  registerAppScheme(protocol);

  let running: Running | null = null;
  let showWhenReady = !launch.background;
  const handedOver = !claimSingleInstance(app, dataDir, (second) => {
    // The helper starts the app with --background: a race with a running app must not pop its window.
    if (second.background) return;
    if (running) running.window.show();
    else showWhenReady = true;
  });
  if (handedOver) {
    app.quit();
    return { dataDir, ready: Promise.resolve(false) };
  }
  if (launch.background && process.platform === 'darwin') app.dock?.hide();

  let quitting = false;
  /** Why the app stops (`letagents-desktop stop`, the idle exit); a plain Quit is the person's. */
  let stopReason = 'quit from the app';
  let stopping: Promise<void> | null = null;
  let stopped = false;
  let starting: Promise<Running | null> = Promise.resolve(null);

  // Quit waits for a clean stop (the core's last writes commit, the socket file goes),
  // then quits for real. Quits asked for meanwhile (the last window closing) join it.
  app.on('before-quit', (event) => {
    quitting = true;
    if (stopped) return;
    event.preventDefault();
    stopping ??= starting
      .then(stop)
      .catch((error: unknown) => console.error('LetAgents did not stop cleanly:', error))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  app.on('window-all-closed', () => {
    // Reached only when closing did not hide the window, i.e. no agent is connected.
    app.quit();
  });
  app.on('activate', () => running?.window.show());

  starting = app.whenReady()
    .then(() => start())
    .catch((error: unknown) => {
      // E.g. a database written by a newer version: say why, and end without touching it.
      failStart(error instanceof Error ? error.message : String(error), 1);
      return null;
    });
  const ready = starting.then((result) => {
    running = result;
    if (result && showWhenReady) showWindow(result);
    return result !== null;
  });
  return { dataDir, ready };

  async function start(): Promise<Running | null> {
    const apiHost: ApiHost = {
      kind: 'electron',
      env,
      openExternal: (url) => openExternalSafely(shell, url),
      openPath: async (folder) => (await shell.openPath(folder)) === '',
    };
    let host: AppHost;
    try {
      // The same host `serve` runs, minus the browser UI: the window gets the page over app://.
      host = await startAppHost({
        ...options.appOptions,
        dataDir,
        env,
        port: 0,
        apiHost,
        // The window gets the page over app://; a paired phone gets the same built page over HTTPS.
        phonePageDir: resourcesOf().rendererDir,
        run: { kind: 'desktop', startedBy: launch.background ? 'agent' : 'person' },
        // Started hidden by a helper: it ends once nothing needs it (no agent, no window shown).
        idleExitMs: launch.background ? idleExitSeconds(env) * 1000 : null,
        openWindows: () => (running?.window.browserWindow()?.isVisible() ? 1 : 0),
        onStop: (reason) => {
          stopReason = reason;
          app.quit();
        },
        helperCommand: resolveAppHelperCommand({
          isPackaged: app.isPackaged,
          execPath: process.execPath,
          resourcesPath: process.resourcesPath,
          dataDir,
          env,
        }),
      });
    } catch (error) {
      if (!(error instanceof AppAlreadyRunningError)) throw error;
      // A `letagents-desktop serve` (not an Electron app, so not under the lock) has the folder.
      failStart(error.message, 3);
      return null;
    }
    try {
      return { host, ...startShell(host) };
    } catch (error) {
      await host.close();
      throw error;
    }
  }

  function resourcesOf() {
    return shellResources({ mainDir: options.mainDir, isPackaged: app.isPackaged, resourcesPath: process.resourcesPath, platform: process.platform, env });
  }

  function startShell(host: AppHost): Omit<Running, 'host'> {
    const files = resourcesOf();
    installAppProtocol(session.defaultSession.protocol, files.rendererDir);
    guardSession(session.defaultSession, files.entryUrl);

    const api = options.shellApi ? options.shellApi(host) : { dispatch: host.dispatch, subscribe: host.subscribe };
    const status = new ShellStatus(api);
    const window = new MainWindow({
      preloadPath: files.preloadPath,
      iconPath: process.platform === 'linux' ? files.windowIconPath : undefined,
      entryUrl: files.entryUrl,
      openExternal: (url) => void openExternalSafely(shell, url),
      isQuitting: () => quitting,
      keepRunningInTray: () => status.current().agentsOnline > 0,
    });
    const bridge = installIpcBridge(ipcMain, api, { contents: () => window.contents(), entryUrl: files.entryUrl });
    const open = (route: OpenTarget) => {
      showWindow({ window });
      window.whenLoaded(() => bridge.push(openMessage(route)));
    };
    const tray = new TrayPresence(files.trayIconPath, {
      openWindow: () => showWindow({ window }),
      openNeedsYou: () => open({ view: 'needsYou' }),
      quit: () => app.quit(),
    });
    status.onChange((next) => {
      tray.update(next);
      app.setBadgeCount(next.needsYou.length);
    });
    const notifier = new NeedsYouNotifier({ api, status, isWindowFocused: () => window.isFocused(), open });
    notifier.start();
    // Scheduled automations due while the computer slept are looked at as it wakes.
    const onResume = () => host.app.automations.recheck();
    powerMonitor.on('resume', onResume);
    installAppMenu(
      {
        openSettings: () => open({ view: 'settings' }),
        checkDiagnostics: () => void showDiagnostics(window.browserWindow(), api, dataDir),
        openDataFolder: () => void api.dispatch('app.openDataFolder', {}),
      },
      process.platform,
      !app.isPackaged,
    );
    void status.start();
    return { status, notifier, bridge, tray, window, stopPower: () => powerMonitor.off('resume', onResume) };
  }

  function failStart(message: string, code: number): void {
    dialog.showErrorBox('LetAgents cannot start', message);
    stopped = true;
    app.exit(code);
  }

  function showWindow(target: Pick<Running, 'window'>): void {
    if (process.platform === 'darwin') void app.dock?.show();
    target.window.show();
  }

  async function stop(result: Running | null): Promise<void> {
    if (!result) return;
    result.notifier.stop();
    result.stopPower();
    result.status.stop();
    result.bridge.close();
    result.tray.destroy();
    result.window.destroy();
    await result.host.close(stopReason);
  }
}
