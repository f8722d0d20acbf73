import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_ENTRY_URL, answerAppRequest, installAppProtocol, isAppPage, registerAppScheme } from '../../../src/main/electron/appProtocol';
import { PAGE_CSP } from '../../../src/main/web/securityHeaders';
import { protocol, resetElectronMock, session } from './electronMock';

vi.mock('electron', () => import('./electronMock'));

let outside: string;
let root: string;

beforeAll(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'la-protocol-')));
  root = join(base, 'renderer');
  outside = join(base, 'secret.txt');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'notes.unknown'), 'x');
  writeFileSync(outside, 'private');
  symlinkSync(outside, join(root, 'assets', 'link.js'));
});
afterAll(() => rmSync(join(root, '..'), { recursive: true, force: true }));
beforeEach(resetElectronMock);

describe('the app:// protocol', () => {
  it('registers app: as a standard, secure scheme so the page has an origin for its CSP', () => {
    registerAppScheme(protocol as never);
    expect(protocol.privileged).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true, supportFetchAPI: true }) },
    ]);
    expect(protocol.privileged[0]).not.toHaveProperty('privileges.bypassCSP');
  });

  it('serves the page with the strict Content-Security-Policy', async () => {
    const response = await answerAppRequest(root, 'GET', APP_ENTRY_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(PAGE_CSP);
    expect(PAGE_CSP).toContain("default-src 'none'");
    expect(PAGE_CSP).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<div id="root"></div>');
  });

  it('serves built assets, and the page for the bare origin', async () => {
    const script = await answerAppRequest(root, 'GET', 'app://letagents/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
    expect((await answerAppRequest(root, 'GET', 'app://letagents/')).status).toBe(200);
  });

  it('answers HEAD without a body', async () => {
    const response = await answerAppRequest(root, 'HEAD', APP_ENTRY_URL);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('refuses paths leading out of the renderer folder, through .. or a symlink', async () => {
    // The URL parser already folds a dotted segment away; what is left names no file here.
    const dotted = await answerAppRequest(root, 'GET', 'app://letagents/%2e%2e/secret.txt');
    expect(dotted.status).toBe(404);
    expect(await dotted.text()).not.toContain('private');
    // An encoded slash survives parsing and is refused as malformed.
    expect((await answerAppRequest(root, 'GET', 'app://letagents/assets/..%2f..%2fsecret.txt')).status).toBe(400);
    const viaLink = await answerAppRequest(root, 'GET', 'app://letagents/assets/link.js');
    expect(viaLink.status).toBe(404);
    expect(await viaLink.text()).not.toContain('private');
  });

  it('refuses other hosts, other methods, unknown files and unknown types', async () => {
    expect((await answerAppRequest(root, 'GET', 'app://elsewhere/index.html')).status).toBe(404);
    expect((await answerAppRequest(root, 'POST', APP_ENTRY_URL)).status).toBe(405);
    expect((await answerAppRequest(root, 'GET', 'app://letagents/missing.html')).status).toBe(404);
    expect((await answerAppRequest(root, 'GET', 'app://letagents/notes.unknown')).status).toBe(404);
    const refused = await answerAppRequest(root, 'GET', 'app://letagents/missing.html');
    expect(refused.headers.get('content-security-policy')).toBe(PAGE_CSP);
  });

  it('installs its handler on the session protocol for app:', async () => {
    installAppProtocol(session.defaultSession.protocol as never, root);
    const handler = session.defaultSession.protocol.handlers.get('app')!;
    const response = await handler(new Request(APP_ENTRY_URL));
    expect(response.status).toBe(200);
  });

  it('knows the app page by scheme and host, whatever the path', () => {
    expect(isAppPage('app://letagents/index.html#x', APP_ENTRY_URL)).toBe(true);
    expect(isAppPage('app://letagents', APP_ENTRY_URL)).toBe(true);
    expect(isAppPage('app://other/index.html', APP_ENTRY_URL)).toBe(false);
    expect(isAppPage('https://letagents/index.html', APP_ENTRY_URL)).toBe(false);
    expect(isAppPage('file:///index.html', APP_ENTRY_URL)).toBe(false);
    expect(isAppPage('not a url', APP_ENTRY_URL)).toBe(false);
    expect(isAppPage('http://localhost:5173/', 'http://localhost:5173/')).toBe(true);
    expect(isAppPage('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
  });
});
