// The auth service: GitHub sign-in by device flow, the token in the OS keychain, the cached
// account, sign-out, "a 401 signs you out", and the owner identity agents' labels use.
import { ownerAttribution } from '../domain/identity/labels';
import { describeKeychainProblem, GITHUB_TOKEN_ACCOUNT, KeychainUnavailableError, type KeychainAvailability, type SecretStore } from '../secrets/secretStore';
import { errors } from '../domain/errors';
import {
  deleteAccountRow,
  getAccountRow,
  getGitHubClientIdSetting,
  saveAccountRow,
  setGitHubClientIdSetting,
  type AccountRow,
} from '../store/accountQueries';
import type { Storage } from '../store/port';
import {
  SIGN_OUT_IS_THE_PERSONS,
  softFailure,
  type AccountView,
  type ClearSavedAuthResult,
  type ForgetPendingSignInResult,
  type PollDeviceAuthOutcome,
  type PollDeviceAuthResult,
  type StartDeviceAuthResult,
} from './authResults';
import { createDeviceAuth, type PendingDeviceAuth, type StartInput } from './deviceAuth';
import { fetchUser } from './githubDeviceFlow';
import { createGitHubHttp, type GitHubHttp } from './githubHttp';
import { OAUTH_APP_HELP, resolveClientId, resolveGitHubEndpoints, type EndpointsResult, type GitHubEndpoints } from './githubSettings';
import { osUserName, ownerIdentityOf, type OwnerIdentity } from './ownerIdentity';

export interface AuthServiceOptions {
  store: Storage;
  secrets: SecretStore;
  /** App version for the User-Agent (package.json "version"). */
  version: string;
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; tests move it to pass poll intervals and expiry. */
  now?: () => number;
  timeoutMs?: number;
  osUserName?: () => string;
}

/** What the person sees: "signed in as …", never the token. */
export interface AuthStatus {
  signedIn: boolean;
  account: AccountView | null;
  signedInAs: string | null;
  tokenExpiresAt: string | null;
  keychain: KeychainAvailability;
  clientConfigured: boolean;
  /** How to create and configure a GitHub OAuth App, when none is configured. */
  clientHelp: string | null;
  pending: { requestId: string; userCode: string; verificationUri: string; expiresAt: string; interval: number } | null;
}

export const accountView = (row: AccountRow): AccountView => ({
  id: row.github_id,
  login: row.login,
  display_name: row.display_name,
  avatar_url: row.avatar_url,
});

export function createAuthService(options: AuthServiceOptions) {
  const { store, secrets } = options;
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  // The OS user does not change while the app runs; reading it (the passwd database) once
  // spares every tool call that names its owner a system call (issue 38).
  let osUserKnown: string | null = null;
  const osUser = options.osUserName ?? (() => (osUserKnown ??= osUserName(env)));
  const http: GitHubHttp = createGitHubHttp({ version: options.version, fetch: options.fetch, timeoutMs: options.timeoutMs });

  const config = async (): Promise<{ clientId: string | null; endpoints: EndpointsResult }> => ({
    clientId: resolveClientId(await store.read(getGitHubClientIdSetting), env),
    endpoints: resolveGitHubEndpoints(env),
  });
  const cachedAccount = async () => (await store.read(getAccountRow)) ?? null;

  async function forgetAccount(): Promise<boolean> {
    return store.write(async (tx) => {
      const had = await deleteAccountRow(tx);
      if (had) tx.emit({ type: 'auth.changed' });
      return had;
    });
  }

  /** GitHub no longer accepts the token: forget it and the account. */
  async function endRejectedSession(): Promise<void> {
    await deleteToken();
    await forgetAccount();
  }

  /** Deletes the token; false when there was none or the keychain cannot be reached. */
  async function deleteToken(): Promise<boolean> {
    try {
      return await secrets.delete(GITHUB_TOKEN_ACCOUNT);
    } catch (error) {
      if (error instanceof KeychainUnavailableError) return false;
      throw error;
    }
  }

  /** The stored token; null when there is none or the keychain is unavailable. */
  async function readToken(): Promise<string | null> {
    try {
      return await secrets.get(GITHUB_TOKEN_ACCOUNT);
    } catch (error) {
      if (error instanceof KeychainUnavailableError) return null;
      throw error;
    }
  }

  async function completeSignIn(token: string, expiresInS: number | null, endpoints: GitHubEndpoints): Promise<PollDeviceAuthResult> {
    const user = await fetchUser(http, endpoints, token);
    if (user.kind === 'unauthorized') return { ...softFailure(errors.O4('GitHub rejected the new token (HTTP 401)')), status: 'error' };
    if (user.kind === 'error') return { ...softFailure(errors.O4(user.detail)), status: 'error' };
    try {
      await secrets.set(GITHUB_TOKEN_ACCOUNT, token);
    } catch (error) {
      if (error instanceof KeychainUnavailableError) return softFailure(errors.O3(error.message));
      throw error;
    }
    const expiresAt = expiresInS === null ? null : new Date(now() + expiresInS * 1000).toISOString();
    const account = user.account;
    await store.write(async (tx) => {
      await saveAccountRow(tx, {
        githubId: account.id,
        login: account.login,
        displayName: account.display_name,
        avatarUrl: account.avatar_url,
        expiresAt,
      });
      tx.emit({ type: 'auth.changed' });
    });
    const owner = ownerIdentityOf({ login: account.login, displayName: account.display_name }, osUser());
    return {
      success: true,
      status: 'authorized',
      account,
      expires_at: expiresAt,
      hint: `Signed in to GitHub as ${account.login}. New agents are labelled "${ownerAttribution(owner.ownerLabel)}".`,
    };
  }

  const deviceAuth = createDeviceAuth({
    http,
    now,
    config,
    keychainAvailability: () => secrets.availability(),
    completeSignIn,
  });

  /** Signed in means: a cached account and its token in the keychain. */
  async function session(): Promise<{ row: AccountRow | null; token: string | null; keychain: KeychainAvailability }> {
    const keychain = await secrets.availability();
    let row = await cachedAccount();
    const token = keychain.available ? await readToken() : null;
    if (row && keychain.available && token === null) {
      // The token was removed from the keychain outside the app: the account is stale.
      await forgetAccount();
      row = null;
    }
    return { row, token, keychain };
  }

  const pendingView = (p: PendingDeviceAuth | null) =>
    p && { requestId: p.requestId, userCode: p.userCode, verificationUri: p.verificationUri, expiresAt: new Date(p.expiresAtMs).toISOString(), interval: p.intervalS };

  return {
    /** The person's view for the app window. */
    async status(): Promise<AuthStatus> {
      const { row, token, keychain } = await session();
      const signedIn = row !== null && token !== null;
      const clientConfigured = (await config()).clientId !== null;
      return {
        signedIn,
        account: row && accountView(row),
        signedInAs: row && (row.display_name ? `${row.display_name} (@${row.login})` : `@${row.login}`),
        tokenExpiresAt: row?.expires_at ?? null,
        keychain,
        clientConfigured,
        clientHelp: clientConfigured ? null : OAUTH_APP_HELP,
        pending: pendingView(deviceAuth.current()),
      };
    },

    /** The auth fields of get_onboarding_status. */
    async onboardingStatus() {
      const { row, token, keychain } = await session();
      const authenticated = row !== null && token !== null;
      const pending = deviceAuth.current();
      const clientConfigured = (await config()).clientId !== null;
      return {
        authenticated,
        auth_source: authenticated ? ('keychain' as const) : ('none' as const),
        auth_hint: authHint({ row: authenticated ? row : null, pending, keychain, clientConfigured }),
        account: authenticated && row ? accountView(row) : null,
        token_expires_at: authenticated ? (row?.expires_at ?? null) : null,
        pending_device_auth: pending && {
          request_id: pending.requestId,
          user_code: pending.userCode,
          verification_uri: pending.verificationUri,
          expires_at: new Date(pending.expiresAtMs).toISOString(),
        },
        keychain_available: keychain.available,
        github_client_configured: clientConfigured,
      };
    },

    startDeviceAuth: (input?: StartInput): Promise<StartDeviceAuthResult> => deviceAuth.start(input),
    pollDeviceAuth: (input?: { requestId?: string | null }): Promise<PollDeviceAuthOutcome> => deviceAuth.poll(input),
    /** Drops the pending request (the person closed the sign-in dialog); true when there was one. */
    cancel: (): boolean => deviceAuth.cancel(),
    /** Aborts when the pending request is cancelled, replaced or finished (for waitForDeviceAuth). */
    pendingSignal: (): AbortSignal | null => deviceAuth.signal(),

    /** clear_saved_auth: an agent may only drop a pending sign-in; the token stays (signing out is the person's act). */
    forgetPendingSignIn(): ForgetPendingSignInResult {
      const cleared = deviceAuth.cancel();
      return { success: true, signed_out: false, env_token_still_present: false, pending_sign_in_cleared: cleared, hint: SIGN_OUT_IS_THE_PERSONS };
    },

    /** The person signs out (the app's Settings): deletes the token, the pending request and the cached account. */
    async signOut(): Promise<ClearSavedAuthResult> {
      const hadToken = await deleteToken();
      const hadPending = deviceAuth.cancel();
      const hadAccount = await forgetAccount();
      return { success: true, signed_out: hadToken || hadAccount || hadPending, env_token_still_present: false };
    },

    /** GitHub answered 401 to an authenticated call: the session is over. */
    handleUnauthorized: endRejectedSession,

    /** The token for GitHub calls made by the main process; never give it to the renderer or agents. */
    githubToken: readToken,

    /** Re-reads the signed-in user from GitHub (e.g. at start-up); a 401 signs out. */
    async refreshAccount(): Promise<'refreshed' | 'signed_out' | 'not_signed_in' | 'unreachable'> {
      const token = await readToken();
      const row = await cachedAccount();
      const endpoints = resolveGitHubEndpoints(env);
      if (!token || !row) return 'not_signed_in';
      if (!endpoints.ok) return 'unreachable';
      const user = await fetchUser(http, endpoints.endpoints, token);
      if (user.kind === 'unauthorized') {
        await endRejectedSession();
        return 'signed_out';
      }
      if (user.kind === 'error') return 'unreachable';
      const a = user.account;
      await store.write(async (tx) => {
        await saveAccountRow(tx, { githubId: a.id, login: a.login, displayName: a.display_name, avatarUrl: a.avatar_url, expiresAt: row.expires_at });
        tx.emit({ type: 'auth.changed' });
      });
      return 'refreshed';
    },

    /** The signed-in account from the cached row (no keychain call). */
    async account(): Promise<AccountView | null> {
      const row = await cachedAccount();
      return row && accountView(row);
    },

    /** get_current_room's `auth` (from the cached row, which the service keeps in step with the keychain). */
    async authSummary(): Promise<{ source: 'keychain'; expires_at: string | null; account: AccountView } | null> {
      const row = await cachedAccount();
      return row && { source: 'keychain', expires_at: row.expires_at, account: accountView(row) };
    },

    /** Owner label and slug for new agents and the person's messages (no keychain call). */
    async ownerIdentity(): Promise<OwnerIdentity> {
      const row = await cachedAccount();
      return ownerIdentityOf(row && { login: row.login, displayName: row.display_name }, osUser());
    },

    /** Sets (or with null, removes) the GitHub OAuth App client id in the app's settings. */
    async setClientId(clientId: string | null): Promise<void> {
      const value = clientId?.trim() || null;
      await store.write(async (tx) => {
        await setGitHubClientIdSetting(tx, value);
        tx.emit({ type: 'auth.changed' });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function authHint(s: { row: AccountRow | null; pending: PendingDeviceAuth | null; keychain: KeychainAvailability; clientConfigured: boolean }): string {
  if (s.row) return `Signed in to GitHub as ${s.row.login}; the token is in the OS keychain.`;
  if (s.pending) return `Open ${s.pending.verificationUri} and enter code ${s.pending.userCode}, then run poll_device_auth.`;
  if (!s.clientConfigured) return `${errors.O1().message} ${OAUTH_APP_HELP}`;
  if (!s.keychain.available) {
    return `${describeKeychainProblem(s.keychain.reason, s.keychain.fix)} Sign-in is optional; everything else works.`;
  }
  return 'Not signed in. Sign-in is optional and only sets the owner shown in agent labels; run start_device_auth to sign in with GitHub.';
}
