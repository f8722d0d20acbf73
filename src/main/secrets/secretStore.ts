// The secret store contract: named secrets kept in the OS keychain under the service
// "LetAgents Desktop", and how the keychain reports that it cannot be used.

/** The keychain service every secret of the app is filed under (data-model.md §7). */
export const KEYCHAIN_SERVICE = 'LetAgents Desktop';
/** The keychain account that holds the GitHub token. */
export const GITHUB_TOKEN_ACCOUNT = 'github-token';

export type KeychainAvailability =
  | { available: true }
  | { available: false; reason: string; fix: string };

export interface SecretStore {
  /** Where secrets go: the OS keychain, or memory (tests of other modules only). */
  readonly kind: 'keychain' | 'memory';
  /** The secret, or null when none is stored. Throws KeychainUnavailableError. */
  get(account: string): Promise<string | null>;
  /** Stores (or replaces) the secret. Throws KeychainUnavailableError. */
  set(account: string, value: string): Promise<void>;
  /** Removes the secret; false when there was none. Throws KeychainUnavailableError. */
  delete(account: string): Promise<boolean>;
  /** Whether secrets can be stored now, and if not why and how to fix it. Never throws. */
  availability(): Promise<KeychainAvailability>;
}

/** The keychain refused or could not be reached; there is deliberately no file fallback. */
export class KeychainUnavailableError extends Error {
  readonly code = 'keychain_unavailable';
  constructor(
    readonly reason: string,
    readonly fix: string,
  ) {
    super(describeKeychainProblem(reason, fix));
    this.name = 'KeychainUnavailableError';
  }
}

/** One person-readable sentence pair: what is wrong with the keychain, then how to fix it. */
export function describeKeychainProblem(reason: string, fix: string): string {
  return `The OS keychain is unavailable (${reason}). ${fix}`;
}
