// The main window's options: the renderer is sandboxed, isolated from the preload, and has
// no Node; the window appears only once its first frame is painted.
import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowOptionsInput {
  /** The bundled preload (CommonJS: a sandboxed preload cannot be an ES module). */
  readonly preloadPath: string;
  /** Linux shows this in the task switcher; macOS and Windows use the app bundle's icon. */
  readonly iconPath?: string;
}

export function mainWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: 'LetAgents',
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    // Shown on 'ready-to-show' (or never, when started in the background).
    show: false,
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: {
      preload: input.preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Chromium's spellchecker downloads dictionaries from Google: the app promises no network but GitHub.
      spellcheck: false,
    },
  };
}
