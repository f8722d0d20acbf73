import { beforeEach, describe, expect, it, vi } from 'vitest';
import { openExternalSafely } from '../../../src/main/electron/externalLinks';
import { resetElectronMock, shell } from './electronMock';

vi.mock('electron', () => import('./electronMock'));

beforeEach(resetElectronMock);

describe('opening links outside the app', () => {
  it('opens https: links in the system browser', async () => {
    expect(await openExternalSafely(shell, 'https://example.com/a?b=c#d')).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/a?b=c#d', { activate: true });
  });

  it('opens the GitHub verification page', async () => {
    expect(await openExternalSafely(shell, 'https://github.com/login/device')).toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://github.com/login/device', { activate: true });
  });

  const refused = [
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'smb://host/share',
    'ms-settings:privacy',
    'vscode://file/etc/passwd',
    'slack://open',
    'mailto:someone@example.com',
    'app://letagents/index.html',
    'https://user:secret@example.com/',
    '//example.com/',
    'example.com',
    '',
    ' https ://broken',
  ];
  for (const url of refused) {
    it(`refuses ${JSON.stringify(url)}`, async () => {
      expect(await openExternalSafely(shell, url)).toBe(false);
      expect(shell.openExternal).not.toHaveBeenCalled();
    });
  }

  it('refuses anything that is not a string', async () => {
    for (const value of [undefined, null, 42, { href: 'https://example.com' }]) expect(await openExternalSafely(shell, value)).toBe(false);
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('says so when the system could not open the link', async () => {
    shell.openExternal.mockRejectedValueOnce(new Error('no browser'));
    expect(await openExternalSafely(shell, 'https://example.com/')).toBe(false);
  });
});
