// An in-memory secret store for tests of modules that need one (data-model.md §7:
// "tests inject an in-memory keychain"). The app itself always uses the OS keychain.
import { KeychainUnavailableError, type KeychainAvailability, type SecretStore } from './secretStore';

export interface MemorySecretStore extends SecretStore {
  /** Makes every call fail as a keychain would (or work again with null). */
  setUnavailable(problem: { reason: string; fix: string } | null): void;
  /** Every secret held, for assertions. */
  readonly entries: ReadonlyMap<string, string>;
}

export function createMemorySecretStore(initial: Record<string, string> = {}): MemorySecretStore {
  const entries = new Map(Object.entries(initial));
  let problem: { reason: string; fix: string } | null = null;
  const check = () => {
    if (problem) throw new KeychainUnavailableError(problem.reason, problem.fix);
  };
  return {
    kind: 'memory',
    entries,
    setUnavailable: (next) => {
      problem = next;
    },
    async get(account) {
      check();
      return entries.get(account) ?? null;
    },
    async set(account, value) {
      check();
      entries.set(account, value);
    },
    async delete(account) {
      check();
      return entries.delete(account);
    },
    async availability(): Promise<KeychainAvailability> {
      return problem ? { available: false, ...problem } : { available: true };
    },
  };
}
