// The one stand-in for the `electron` module (Electron cannot run on these machines).
// Test files use it with `vi.mock('electron', () => import('./electronMock'))` and inspect
// what the shell did through the same exports. resetElectronMock() between tests.
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/** An Electron-style event: preventDefault() is remembered. */
export function fakeEvent<T extends object>(fields: T = {} as T): T & { defaultPrevented: boolean; preventDefault(): void } {
  const event = {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return event;
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  readonly sent: { channel: string; payload: unknown }[] = [];
  loading = true;
  destroyed = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
  isDestroyed() {
    return this.destroyed;
  }
  isLoading() {
    return this.loading;
  }
  /** The page finished loading (the shell waits for this before pushing "open" messages). */
  finishLoad() {
    this.loading = false;
    this.emit('did-finish-load');
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loadedUrl: string | null = null;
  visible = false;
  focused = false;
  minimized = false;
  destroyed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.instances.push(this);
  }
  loadURL(url: string) {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
    this.focused = false;
  }
  focus() {
    this.focused = true;
  }
  restore() {
    this.minimized = false;
  }
  isVisible() {
    return this.visible;
  }
  isFocused() {
    return this.focused;
  }
  isMinimized() {
    return this.minimized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
  /** The person clicks the close button: 'close' may be prevented, else the window goes. */
  userCloses(): boolean {
    const event = fakeEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return false;
    this.destroy();
    if (BrowserWindow.instances.every((w) => w.destroyed)) app.emit('window-all-closed');
    return true;
  }
}

class FakeApp extends EventEmitter {
  lockGranted = true;
  isPackaged = false;
  readonly paths = new Map<string, string>();
  quitRequests = 0;
  /** Set once a quit went through (before-quit not prevented). */
  quitted = false;
  exitCode: number | null = null;
  badgeCount = 0;
  readonly dock = { hide: vi.fn(), show: vi.fn(() => Promise.resolve()) };
  private markReady!: () => void;
  private ready = new Promise<void>((resolve) => (this.markReady = resolve));

  requestSingleInstanceLock() {
    return this.lockGranted;
  }
  setPath(name: string, value: string) {
    this.paths.set(name, value);
  }
  getPath(name: string) {
    return this.paths.get(name) ?? `/fake/${name}`;
  }
  whenReady() {
    return this.ready;
  }
  /** Electron is ready: whenReady() resolves. */
  becomeReady() {
    this.markReady();
  }
  quit() {
    this.quitRequests++;
    const event = fakeEvent();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.quitted = true;
  }
  exit(code = 0) {
    this.exitCode = code;
  }
  setBadgeCount(count: number) {
    this.badgeCount = count;
    return true;
  }
  resetState() {
    this.removeAllListeners();
    this.lockGranted = true;
    this.isPackaged = false;
    this.paths.clear();
    this.quitRequests = 0;
    this.quitted = false;
    this.exitCode = null;
    this.badgeCount = 0;
    this.dock.hide.mockClear();
    this.dock.show.mockClear();
    this.ready = new Promise<void>((resolve) => (this.markReady = resolve));
  }
}

export const app = new FakeApp();

type Handler = (event: unknown, ...args: unknown[]) => unknown;
export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  },
};

function fakeProtocol() {
  return {
    privileged: [] as unknown[],
    handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
    registerSchemesAsPrivileged(schemes: unknown[]) {
      this.privileged.push(...schemes);
    },
    handle(scheme: string, handler: (request: Request) => Promise<Response> | Response) {
      this.handlers.set(scheme, handler);
    },
  };
}

export const protocol = fakeProtocol();

export const session = {
  defaultSession: {
    protocol: fakeProtocol(),
    permissionRequestHandler: null as null | ((...args: unknown[]) => void),
    permissionCheckHandler: null as null | ((...args: unknown[]) => boolean),
    devicePermissionHandler: null as null | ((...args: unknown[]) => boolean),
    spellCheckerEnabled: true,
    setSpellCheckerEnabled(enabled: boolean) {
      this.spellCheckerEnabled = enabled;
    },
    setPermissionRequestHandler(handler: (...args: unknown[]) => void) {
      this.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler(handler: (...args: unknown[]) => boolean) {
      this.permissionCheckHandler = handler;
    },
    setDevicePermissionHandler(handler: (...args: unknown[]) => boolean) {
      this.devicePermissionHandler = handler;
    },
  },
};

export const shell = {
  openExternal: vi.fn((_url: string, _options?: unknown) => Promise.resolve()),
  openPath: vi.fn((_path: string) => Promise.resolve('')),
};

export const dialog = {
  showMessageBox: vi.fn((..._args: unknown[]) => Promise.resolve({ response: 0, checkboxChecked: false })),
  showErrorBox: vi.fn((_title: string, _content: string) => undefined),
};

export interface FakeMenu {
  readonly template: MenuItem[];
}
export interface MenuItem {
  id?: string;
  label?: string;
  role?: string;
  type?: string;
  accelerator?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItem[];
}

export const Menu = {
  applicationMenu: null as FakeMenu | null,
  buildFromTemplate(template: MenuItem[]): FakeMenu {
    return { template };
  },
  setApplicationMenu(menu: FakeMenu | null) {
    this.applicationMenu = menu;
  },
};

export const nativeImage = {
  createFromPath(path: string) {
    return { path, template: false, setTemplateImage(flag: boolean) { this.template = flag; } };
  },
};

export class Tray extends EventEmitter {
  static instances: Tray[] = [];
  toolTip = '';
  title = '';
  menu: FakeMenu | null = null;
  destroyed = false;
  constructor(readonly image: { path: string; template: boolean }) {
    super();
    Tray.instances.push(this);
  }
  setToolTip(text: string) {
    this.toolTip = text;
  }
  setTitle(text: string) {
    this.title = text;
  }
  setContextMenu(menu: FakeMenu) {
    this.menu = menu;
  }
  destroy() {
    this.destroyed = true;
  }
}

export class Notification extends EventEmitter {
  static supported = true;
  static instances: Notification[] = [];
  shown = false;
  closed = false;
  static isSupported() {
    return Notification.supported;
  }
  constructor(readonly options: { title: string; body: string }) {
    super();
    Notification.instances.push(this);
  }
  show() {
    this.shown = true;
  }
  close() {
    this.closed = true;
  }
}

/** Finds a menu item by id anywhere in a template. */
export function findMenuItem(items: readonly MenuItem[] | undefined, id: string): MenuItem | undefined {
  for (const item of items ?? []) {
    if (item.id === id) return item;
    const inner = findMenuItem(item.submenu, id);
    if (inner) return inner;
  }
  return undefined;
}

/** The system's power events ('suspend', 'resume'): tests emit them. */
export const powerMonitor = new EventEmitter();

export function resetElectronMock(): void {
  powerMonitor.removeAllListeners();
  app.resetState();
  BrowserWindow.instances = [];
  Tray.instances = [];
  Notification.instances = [];
  Notification.supported = true;
  ipcMain.handlers.clear();
  protocol.privileged = [];
  protocol.handlers.clear();
  session.defaultSession.protocol.handlers.clear();
  session.defaultSession.permissionRequestHandler = null;
  session.defaultSession.permissionCheckHandler = null;
  session.defaultSession.devicePermissionHandler = null;
  session.defaultSession.spellCheckerEnabled = true;
  Menu.applicationMenu = null;
  shell.openExternal.mockClear();
  shell.openPath.mockClear();
  dialog.showMessageBox.mockClear();
  dialog.showErrorBox.mockClear();
}

export default { app, BrowserWindow, ipcMain, protocol, session, shell, dialog, Menu, nativeImage, Tray, Notification, powerMonitor };
