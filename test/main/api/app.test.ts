import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createApiImplementation } from '../../../src/main/api';
import { METHOD_NAMES } from '../../../src/shared/bridge';
import { setUpApi } from './harness';

describe('createApiImplementation', () => {
  it('implements every method of the contract, and nothing else', async () => {
    const h = await setUpApi();
    expect(Object.keys(createApiImplementation(h.app)).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('refuses input to the methods that take none, changing nothing', async () => {
    const h = await setUpApi();
    const before = h.snapshot();
    const noInput = ['needsYou.list', 'auth.status', 'auth.poll', 'auth.cancel', 'auth.signOut', 'setup.status', 'settings.get', 'app.info', 'app.doctor', 'app.openDataFolder'];
    for (const method of noInput) expect(await h.fail(method, { extra: 1 }), method).toEqual({ code: 'invalid_input', message: 'Unrecognized key: "extra"' });
    expect(await h.fail('rooms.nuke', {})).toEqual({ code: 'unknown_method', message: 'Unknown method.' });
    expect(h.snapshot()).toBe(before);
  });
});

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('app.info', () => {
  it('gives the version, the host and who the person posts as', async () => {
    const h = await setUpApi();
    expect(await h.call('app.info', {})).toEqual({
      version: VERSION,
      host: 'browser',
      device: null,
      platform: process.platform,
      person: { name: (await h.app.auth.ownerIdentity()).ownerLabel, source: 'os' },
    });
    const electron = await setUpApi({ host: { kind: 'electron' } });
    expect((await electron.call('app.info', {})).host).toBe('electron');
  });
});

describe('app.doctor', () => {
  it("runs the doctor's checks on the app's data folder, plus keychain, sign-in, agent configs, teams and agents a mention cannot wake", async () => {
    const h = await setUpApi();
    const { checks } = await h.call('app.doctor', {});
    expect(checks.map((c) => c.id)).toEqual(['data-folder', 'database', 'agent-token', 'app', 'keychain-and-github-sign-in', 'agent-configs', 'teams', 'agents-a-mention-cannot-wake']);
    expect(checks.find((c) => c.id === 'agents-a-mention-cannot-wake')).toMatchObject({ status: 'ok', detail: 'No agent is connected.' });
    expect(checks.find((c) => c.id === 'teams')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^None: every room is on this computer\./) });
    expect(checks.find((c) => c.id === 'data-folder')).toMatchObject({ status: 'ok', title: 'Data folder' });
    expect(checks.find((c) => c.id === 'database')).toMatchObject({ status: 'ok' });
    expect(checks.find((c) => c.id === 'database')!.detail).toContain(h.dataDir);
    expect(checks.find((c) => c.id === 'agent-configs')).toMatchObject({ status: 'warn', detail: 'No agent tool is connected yet. Fix: Open "Connect agents" in the app.' });
    await h.call('setup.install', { tool: 'cursor' });
    expect((await h.call('app.doctor', {})).checks.find((c) => c.id === 'agent-configs')).toMatchObject({ status: 'ok', detail: 'Connected: Cursor.' });
  });

  it('warns (sign-in is optional) when the keychain is unavailable, with the fix', async () => {
    const h = await setUpApi();
    h.secrets.setUnavailable({ reason: 'locked', fix: 'Unlock it.' });
    const check = (await h.call('app.doctor', {})).checks.find((c) => c.id === 'keychain-and-github-sign-in');
    expect(check).toMatchObject({ status: 'warn', detail: 'The OS keychain is unavailable (locked), so GitHub sign-in is off. Fix: Unlock it.' });
  });
});

describe('app.openExternal and app.openDataFolder', () => {
  it('opens https: links and the data folder through the host', async () => {
    const opened: string[] = [];
    const h = await setUpApi({
      host: {
        openExternal: async (url) => (opened.push(url), true),
        openPath: async (path) => (opened.push(path), true),
      },
    });
    expect(await h.call('app.openExternal', { url: 'https://github.com/acme/app/pull/7' })).toEqual({ opened: true });
    expect(await h.call('app.openDataFolder', {})).toEqual({ opened: true });
    expect(opened).toEqual(['https://github.com/acme/app/pull/7', h.dataDir]);
  });

  it('answers false where the host cannot open anything', async () => {
    const h = await setUpApi();
    expect(await h.call('app.openExternal', { url: 'https://example.com/' })).toEqual({ opened: false });
    expect(await h.call('app.openDataFolder', {})).toEqual({ opened: false });
  });

  it('refuses anything but an https: link, opening nothing', async () => {
    const opened: string[] = [];
    const h = await setUpApi({ host: { openExternal: async (url) => (opened.push(url), true) } });
    for (const url of ['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@example.com/']) {
      expect(await h.fail('app.openExternal', { url })).toEqual({ code: 'invalid_input', message: 'Only https: links open outside the app.' });
    }
    expect(await h.fail('app.openExternal', {})).toMatchObject({ code: 'invalid_input' });
    expect(opened).toEqual([]);
  });
});
