// Electron entry: builds the core, then the shell (src/main/electron).
import { app, BrowserWindow } from 'electron';
import { join } from 'node:path';
import { createCore } from './core';
import { resolveDataDir } from './paths';

app.whenReady().then(() => {
  const core = createCore({ dataDir: resolveDataDir(undefined) });
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, preload: join(__dirname, '../preload/index.js') },
  });
  void window.loadFile(join(__dirname, '../renderer/index.html'));
  app.on('before-quit', () => void core.close());
});
