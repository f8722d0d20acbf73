// The one app window: created on first need (never in a --background start until opened),
// guarded, loading the app page; closing it hides it to the tray while agents are connected.
import { BrowserWindow, type WebContents } from 'electron';
import { mainWindowOptions } from './windowOptions';
import { guardWebContents } from './webGuards';

export interface MainWindowConfig {
  readonly preloadPath: string;
  readonly iconPath?: string;
  /** app://letagents/index.html, or the dev server's page. */
  readonly entryUrl: string;
  openExternal(url: string): void;
  /** Quit in progress: let the window close for real. */
  isQuitting(): boolean;
  /** Closing hides instead while this holds (agents are connected). */
  keepRunningInTray(): boolean;
}

export class MainWindow {
  private window: BrowserWindow | null = null;

  constructor(private readonly config: MainWindowConfig) {}

  contents(): WebContents | null {
    return this.window && !this.window.isDestroyed() ? this.window.webContents : null;
  }

  browserWindow(): BrowserWindow | null {
    return this.window && !this.window.isDestroyed() ? this.window : null;
  }

  isFocused(): boolean {
    const window = this.browserWindow();
    return window !== null && window.isVisible() && window.isFocused();
  }

  /** Shows and focuses the window, creating it if needed (it appears once painted). */
  show(): void {
    const existing = this.browserWindow();
    if (existing) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      return;
    }
    this.create().once('ready-to-show', () => {
      this.window?.show();
      this.window?.focus();
    });
  }

  /** Runs `action` once the page has loaded (at once if it has). */
  whenLoaded(action: () => void): void {
    const contents = this.contents();
    if (!contents) return;
    if (contents.isLoading()) contents.once('did-finish-load', action);
    else action();
  }

  destroy(): void {
    this.browserWindow()?.destroy();
    this.window = null;
  }

  private create(): BrowserWindow {
    const window = new BrowserWindow(mainWindowOptions({ preloadPath: this.config.preloadPath, iconPath: this.config.iconPath }));
    this.window = window;
    guardWebContents(window.webContents, { openExternal: (url) => this.config.openExternal(url) });
    window.on('close', (event) => {
      if (this.config.isQuitting() || !this.config.keepRunningInTray()) return;
      event.preventDefault();
      window.hide();
    });
    window.on('closed', () => {
      if (this.window === window) this.window = null;
    });
    void window.loadURL(this.config.entryUrl);
    return window;
  }
}
