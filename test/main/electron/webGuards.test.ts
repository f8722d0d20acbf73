import { beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_ENTRY_URL } from '../../../src/main/electron/appProtocol';
import { guardSession, guardWebContents } from '../../../src/main/electron/webGuards';
import { FakeWebContents, fakeEvent, resetElectronMock, session } from './electronMock';

vi.mock('electron', () => import('./electronMock'));

beforeEach(resetElectronMock);

function guarded() {
  const contents = new FakeWebContents();
  const opened: string[] = [];
  guardWebContents(contents as never, { openExternal: (url) => opened.push(url) });
  return { contents, opened };
}

describe('what the page may not do', () => {
  it('installs a handler for new windows, navigation, frame navigation, redirects and webviews', () => {
    const { contents } = guarded();
    expect(contents.windowOpenHandler).toBeTypeOf('function');
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      expect(contents.listenerCount(name), name).toBe(1);
    }
  });

  it('never opens a new window; a link it wanted goes to the external-link rule', () => {
    const { contents, opened } = guarded();
    expect(contents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/', 'javascript:alert(1)']);
  });

  it('stops every navigation of the page, including to its own origin', () => {
    const { contents, opened } = guarded();
    for (const url of ['https://example.com/', 'file:///etc/passwd', 'app://letagents/index.html']) {
      const event = fakeEvent({ url });
      contents.emit('will-navigate', event);
      expect(event.defaultPrevented, url).toBe(true);
    }
    expect(opened).toEqual(['https://example.com/', 'file:///etc/passwd', 'app://letagents/index.html']);
  });

  it('stops frame navigations, redirects and webview attachment', () => {
    const { contents, opened } = guarded();
    for (const name of ['will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      const event = fakeEvent({ url: 'https://example.com/' });
      contents.emit(name, event);
      expect(event.defaultPrevented, name).toBe(true);
    }
    expect(opened).toEqual([]);
  });
});

describe('permissions', () => {
  beforeEach(() => guardSession(session.defaultSession as never, APP_ENTRY_URL));

  const request = (permission: string, requestingUrl: string) =>
    new Promise<boolean>((resolve) => session.defaultSession.permissionRequestHandler!(null, permission, resolve, { requestingUrl }));

  it('denies every permission request by default', async () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'midi', 'openExternal', 'display-capture', 'clipboard-read', 'fullscreen', 'unknown']) {
      expect(await request(permission, APP_ENTRY_URL), permission).toBe(false);
    }
  });

  it('lets only the app page write the clipboard (the copy buttons)', async () => {
    expect(await request('clipboard-sanitized-write', APP_ENTRY_URL)).toBe(true);
    expect(await request('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(session.defaultSession.permissionCheckHandler!(null, 'clipboard-sanitized-write', 'app://letagents', {})).toBe(true);
    expect(session.defaultSession.permissionCheckHandler!(null, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);
  });

  it('answers permission checks and device requests with no', () => {
    for (const permission of ['media', 'notifications', 'hid', 'serial', 'usb', 'clipboard-read']) {
      expect(session.defaultSession.permissionCheckHandler!(null, permission, 'app://letagents', {}), permission).toBe(false);
    }
    expect(session.defaultSession.devicePermissionHandler!({ deviceType: 'usb', origin: 'app://letagents' })).toBe(false);
  });
});
