// The secret store over the OS keychain (@napi-rs/keyring, keytar's successor). On Linux
// entries are pinned to the Secret Service: the library would otherwise fall back to the
// kernel keyring, which forgets secrets at reboot. There is never a file fallback.
import { KEYCHAIN_SERVICE, KeychainUnavailableError, type KeychainAvailability, type SecretStore } from './secretStore';
import { keychainLibraryProblem, keychainProblem } from './keychainHelp';

type KeyringModule = typeof import('@napi-rs/keyring');
type AsyncEntry = InstanceType<KeyringModule['AsyncEntry']>;

/** The harmless entry availability() writes, reads back and deletes. */
const PROBE_ACCOUNT = 'availability-probe';
/** A keychain that waits longer than this (e.g. for an unlock prompt) counts as unavailable for the probe. */
const PROBE_TIMEOUT_MS = 10_000;
/** A working keychain is re-probed at most this often; a broken one on every call, so a fix shows at once. */
const PROBE_CACHE_MS = 60_000;

export interface KeychainSecretStoreOptions {
  /** Keychain service name; tests use their own so they never touch the person's entries. */
  service?: string;
  platform?: NodeJS.Platform;
  now?: () => number;
}

let keyringModule: Promise<KeyringModule> | undefined;

/** Loads the native module on first use, so a machine without a binary still starts the app. */
function loadKeyring(): Promise<KeyringModule> {
  keyringModule ??= import('@napi-rs/keyring').then((mod) => {
    const withDefault = mod as KeyringModule & { default?: KeyringModule };
    return withDefault.AsyncEntry ? mod : (withDefault.default as KeyringModule);
  });
  return keyringModule;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createKeychainSecretStore(options: KeychainSecretStoreOptions = {}): SecretStore {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const platform = options.platform ?? process.platform;
  const now = options.now ?? Date.now;
  let lastGoodProbeAt: number | null = null;

  const unavailable = (error: unknown) => {
    lastGoodProbeAt = null;
    if (error instanceof KeychainUnavailableError) return error;
    const problem = keychainProblem(platform, messageOf(error));
    return new KeychainUnavailableError(problem.reason, problem.fix);
  };

  async function entry(account: string): Promise<AsyncEntry> {
    let keyring: KeyringModule;
    try {
      keyring = await loadKeyring();
    } catch (error) {
      const problem = keychainLibraryProblem(platform, process.arch, messageOf(error));
      throw new KeychainUnavailableError(problem.reason, problem.fix);
    }
    const pin = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
    try {
      return new keyring.AsyncEntry(service, account, pin);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async function run<T>(account: string, op: (e: AsyncEntry) => Promise<T>): Promise<T> {
    const e = await entry(account);
    try {
      return await op(e);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async function probe(): Promise<void> {
    const value = `probe-${now()}`;
    await run(PROBE_ACCOUNT, async (e) => {
      await e.setPassword(value);
      const read = await e.getPassword();
      await e.deleteCredential();
      if (read !== value) throw new Error('the keychain did not return what was just stored');
    });
  }

  return {
    kind: 'keychain',
    get: (account) => run(account, (e) => e.getPassword()),
    set: (account, value) => run(account, (e) => e.setPassword(value)),
    delete: (account) => run(account, (e) => e.deleteCredential()),
    async availability(): Promise<KeychainAvailability> {
      if (lastGoodProbeAt !== null && now() - lastGoodProbeAt < PROBE_CACHE_MS) return { available: true };
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the keychain did not answer within ${PROBE_TIMEOUT_MS / 1000} s; it may be waiting to be unlocked`)),
          PROBE_TIMEOUT_MS,
        );
        timer.unref();
      });
      try {
        await Promise.race([probe(), timeout]);
        lastGoodProbeAt = now();
        return { available: true };
      } catch (error) {
        const problem = unavailable(error);
        return { available: false, reason: problem.reason, fix: problem.fix };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
