import { describe, expect, it } from 'vitest';
import { keychainLibraryProblem, keychainProblem } from '../../../src/main/secrets/keychainHelp';
import { createMemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import { KeychainUnavailableError } from '../../../src/main/secrets/secretStore';

describe('explaining an unavailable keychain', () => {
  it('on Linux names the missing Secret Service and how to get one', () => {
    const noBus = keychainProblem('linux', 'Platform failure: DBus error: Failed to connect to socket /run/bus: No such file or directory');
    // The cause in words, without the D-Bus text behind it (issue 27: it was 400 characters).
    expect(noBus.reason).toBe('no Secret Service: no D-Bus session bus is reachable');
    expect(noBus.fix).toMatch(/^Install and unlock gnome-keyring or KWallet/);
    expect(keychainProblem('linux', "Couldn't access platform storage: Secret Service: no result found").reason).toMatch(
      /^no Secret Service: the keyring is locked or has no default collection/,
    );
    expect(keychainProblem('linux', 'org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files').reason).toMatch(
      /^no Secret Service: nothing provides org\.freedesktop\.secrets/,
    );
  });

  it('on macOS and Windows points at the platform keychain', () => {
    expect(keychainProblem('darwin', 'User interaction is not allowed.')).toEqual({
      reason: 'the macOS Keychain refused access (User interaction is not allowed.)',
      fix: 'Unlock your login keychain in Keychain Access (or run `security unlock-keychain`), allow LetAgents when asked, then try again.',
    });
    expect(keychainProblem('win32', 'Access is denied.').reason).toBe('Windows Credential Manager is not accessible (Access is denied.)');
  });

  it('says so when the keychain library cannot load on this machine', () => {
    expect(keychainLibraryProblem('linux', 'ppc64', 'Cannot find native binding').reason).toBe(
      'the keychain library could not load on linux-ppc64 (Cannot find native binding)',
    );
  });
});

describe('the in-memory secret store for tests', () => {
  it('keeps secrets and can play an unavailable keychain', async () => {
    const store = createMemorySecretStore();
    await store.set('github-token', 'gho_x');
    expect(await store.get('github-token')).toBe('gho_x');
    store.setUnavailable({ reason: 'no Secret Service', fix: 'Install gnome-keyring.' });
    expect(await store.availability()).toEqual({ available: false, reason: 'no Secret Service', fix: 'Install gnome-keyring.' });
    await expect(store.get('github-token')).rejects.toBeInstanceOf(KeychainUnavailableError);
    store.setUnavailable(null);
    expect(await store.delete('github-token')).toBe(true);
    expect(store.kind).toBe('memory');
  });
});
