import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellResources } from '../../../src/main/electron/resources';

describe('where the shell finds its files', () => {
  it('uses out/ and build/icons of the checkout in development, and the dev server when it runs', () => {
    const files = shellResources({ mainDir: '/repo/out/main', isPackaged: false, resourcesPath: '/x', platform: 'linux', env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' } });
    expect(files).toEqual({
      preloadPath: path.join('/repo/out/preload/index.cjs'),
      rendererDir: path.join('/repo/out/renderer'),
      entryUrl: 'http://localhost:5173',
      trayIconPath: path.join('/repo/build/icons/tray.png'),
      windowIconPath: path.join('/repo/build/icons/icon.png'),
    });
  });

  it('serves a packaged app from app:// and its icons from the resources folder, whatever the environment says', () => {
    const files = shellResources({ mainDir: '/app.asar/out/main', isPackaged: true, resourcesPath: '/res', platform: 'darwin', env: { ELECTRON_RENDERER_URL: 'http://evil.example' } });
    expect(files.entryUrl).toBe('app://letagents/index.html');
    expect(files.trayIconPath).toBe(path.join('/res/icons/trayTemplate.png'));
    expect(files.rendererDir).toBe(path.join('/app.asar/out/renderer'));
  });
});
