// The secret store against the real OS keychain: a Secret Service (gnome-keyring in a
// private D-Bus session, started by `npm test`), and a child process with no D-Bus at all.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { AsyncEntry, findCredentialsAsync } from '@napi-rs/keyring';
import { createKeychainSecretStore } from '../../../src/main/secrets/keychainSecretStore';
import { GITHUB_TOKEN_ACCOUNT, KEYCHAIN_SERVICE, KeychainUnavailableError } from '../../../src/main/secrets/secretStore';

const keyringEnabled = process.env.LETAGENTS_TEST_KEYRING === '1';
const inCi = !!process.env.CI && process.env.CI !== 'false';
const REPO = new URL('../../../', import.meta.url).pathname;

/** A service name of this test run only, so the person's real entries are never touched. */
const testService = () => `LetAgents Desktop test ${process.pid}-${randomBytes(4).toString('hex')}`;

// Locally without a keyring this block is skipped; in CI a missing keyring fails below.
describe.skipIf(!keyringEnabled)('the OS keychain (real Secret Service)', () => {
  it('is reported available', async () => {
    expect(await createKeychainSecretStore({ service: testService() }).availability()).toEqual({ available: true });
  });

  it('stores, returns, replaces and deletes a secret', async () => {
    const store = createKeychainSecretStore({ service: testService() });
    expect(await store.get('github-token')).toBeNull();
    await store.set('github-token', 'gho_first');
    expect(await store.get('github-token')).toBe('gho_first');
    await store.set('github-token', 'gho_second');
    expect(await store.get('github-token')).toBe('gho_second');
    expect(await store.delete('github-token')).toBe(true);
    expect(await store.get('github-token')).toBeNull();
    expect(await store.delete('github-token')).toBe(false);
  });

  it('leaves no probe entry behind after checking availability', async () => {
    const service = testService();
    const store = createKeychainSecretStore({ service });
    await store.set('github-token', 'gho_kept');
    await store.availability();
    expect((await findCredentialsAsync(service)).map((c) => c.account)).toEqual(['github-token']);
    await store.delete('github-token');
  });

  it('files the GitHub token under "LetAgents Desktop" / "github-token" where other tools can find it', async () => {
    const raw = new AsyncEntry(KEYCHAIN_SERVICE, GITHUB_TOKEN_ACCOUNT);
    const before = await raw.getPassword();
    const store = createKeychainSecretStore();
    try {
      await store.set(GITHUB_TOKEN_ACCOUNT, 'gho_visible_to_the_os');
      expect(await raw.getPassword()).toBe('gho_visible_to_the_os');
    } finally {
      if (before === null) await store.delete(GITHUB_TOKEN_ACCOUNT);
      else await store.set(GITHUB_TOKEN_ACCOUNT, before);
    }
  });
});

if (!keyringEnabled && inCi) {
  describe('the OS keychain (real Secret Service) in CI', () => {
    it('is available to the tests in CI', () => {
      expect.fail(
        'Keychain tests need a real Secret Service but LETAGENTS_TEST_KEYRING is not set. Run them through `npm test`, ' +
          'which starts gnome-keyring in a private D-Bus session (install gnome-keyring and dbus first).',
      );
    });
  });
}

/** Runs the real secret store in a child process with `env` and returns what it reported. */
async function inChildProcess(env: NodeJS.ProcessEnv): Promise<{ availability: unknown; setError: { name: string; code: string; message: string } | null }> {
  const bundle = await build({
    stdin: {
      contents: `
        import { createKeychainSecretStore } from './src/main/secrets/keychainSecretStore';
        const store = createKeychainSecretStore({ service: 'LetAgents Desktop test unavailable' });
        const availability = await store.availability();
        let setError = null;
        try { await store.set('github-token', 'gho_never_stored'); } catch (e) { setError = { name: e.name, code: e.code, message: e.message }; }
        console.log(JSON.stringify({ availability, setError }));`,
      resolveDir: REPO,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['@napi-rs/keyring'],
    write: false,
  });
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', bundle.outputFiles[0].text], {
    cwd: REPO,
    env,
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) as string);
}

describe.runIf(process.platform === 'linux')('the OS keychain when no Secret Service can be reached', () => {
  it('is reported unavailable with the reason and how to fix it, and refuses to store', async () => {
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/letagents-test-bus' };
    const { availability, setError } = await inChildProcess(env);
    expect(availability).toEqual({
      available: false,
      reason: 'no Secret Service: no D-Bus session bus is reachable',
      fix: expect.stringContaining('Install and unlock gnome-keyring or KWallet'),
    });
    expect(setError).toMatchObject({ name: 'KeychainUnavailableError', code: 'keychain_unavailable' });
    expect(setError?.message).toMatch(/^The OS keychain is unavailable \(no Secret Service: /);
  });

  it('is reported unavailable when there is no D-Bus session at all', async () => {
    // No address, no X11 autolaunch and an empty runtime dir, so libdbus has no bus to fall back to.
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'letagents-no-bus-')) };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.DISPLAY;
    const { availability } = await inChildProcess(env);
    expect(availability).toMatchObject({ available: false, reason: expect.stringMatching(/^no Secret Service: /) });
  });
});

describe('a keychain failure', () => {
  it('is a KeychainUnavailableError carrying reason and fix', () => {
    const error = new KeychainUnavailableError('no Secret Service', 'Install gnome-keyring.');
    expect(error).toMatchObject({ code: 'keychain_unavailable', reason: 'no Secret Service', fix: 'Install gnome-keyring.' });
    expect(error.message).toBe('The OS keychain is unavailable (no Secret Service). Install gnome-keyring.');
  });
});
