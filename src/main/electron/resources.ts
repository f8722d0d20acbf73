// Where the shell's files are, in a development build (out/ next to the checkout) and in a
// packaged app (app.asar plus the resources folder).
import path from 'node:path';
import { APP_ENTRY_URL } from './appProtocol';

export interface ShellLocation {
  /** The folder of the built main entry (out/main). */
  readonly mainDir: string;
  readonly isPackaged: boolean;
  /** process.resourcesPath of a packaged app. */
  readonly resourcesPath: string;
  readonly platform: NodeJS.Platform;
  readonly env: NodeJS.ProcessEnv;
}

export interface ShellResources {
  /** CommonJS on purpose: a sandboxed preload cannot be an ES module. */
  readonly preloadPath: string;
  readonly rendererDir: string;
  /** The page the window loads: the dev server's (electron-vite dev) or app://letagents. */
  readonly entryUrl: string;
  readonly trayIconPath: string;
  readonly windowIconPath: string;
}

export function shellResources(where: ShellLocation): ShellResources {
  const out = path.dirname(where.mainDir);
  // build/icons is copied to <resources>/icons by electron-builder (extraResources).
  const icons = where.isPackaged ? path.join(where.resourcesPath, 'icons') : path.join(out, '..', 'build', 'icons');
  const devServer = where.isPackaged ? undefined : where.env.ELECTRON_RENDERER_URL;
  return {
    preloadPath: path.join(out, 'preload', 'index.cjs'),
    rendererDir: path.join(out, 'renderer'),
    entryUrl: devServer || APP_ENTRY_URL,
    trayIconPath: path.join(icons, where.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
    windowIconPath: path.join(icons, 'icon.png'),
  };
}
