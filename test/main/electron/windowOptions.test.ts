import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from '../../../src/main/electron/windowOptions';

describe('the main window options', () => {
  const options = mainWindowOptions({ preloadPath: '/app/out/preload/index.cjs', iconPath: '/app/icons/icon.png' });
  const web = options.webPreferences!;

  it('sandboxes the renderer, isolates it from the preload and gives it no Node', () => {
    expect(web.sandbox).toBe(true);
    expect(web.contextIsolation).toBe(true);
    expect(web.nodeIntegration).toBe(false);
    expect(web.nodeIntegrationInWorker).toBe(false);
    expect(web.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps web security on and turns off webviews, insecure content and drop-to-navigate', () => {
    expect(web.webSecurity).toBe(true);
    expect(web.allowRunningInsecureContent).toBe(false);
    expect(web.webviewTag).toBe(false);
    expect(web.navigateOnDragDrop).toBe(false);
    expect(web.safeDialogs).toBe(true);
  });

  it('turns the spellchecker off: Chromium would download its dictionaries (no network but GitHub)', () => {
    expect(web.spellcheck).toBe(false);
  });

  it('loads the CommonJS preload and starts hidden until painted', () => {
    expect(web.preload).toBe('/app/out/preload/index.cjs');
    expect(options.show).toBe(false);
    expect(options.title).toBe('LetAgents');
    expect(options.icon).toBe('/app/icons/icon.png');
  });

  it('sets no icon when none is given (macOS and Windows use the bundle icon)', () => {
    expect(mainWindowOptions({ preloadPath: '/p.cjs' })).not.toHaveProperty('icon');
  });
});
