// auth.*: GitHub sign-in as the person sees it. The auth service's results are mapped to
// the contract's account models; the token and the device code never leave the core.
import type { Account, DeviceFlow, PollResult } from '../../../shared/model/account';
import type { AccountView, PollDeviceAuthResult, SoftFailure, StartDeviceAuthSuccess } from '../../auth/authResults';
import { OAUTH_APP_HELP } from '../../auth/githubSettings';
import { NO_NETWORK } from '../../auth/githubHttp';
import { DomainError, errors } from '../../domain/errors';
import { describeKeychainProblem } from '../../secrets/secretStore';
import type { ApiContext } from '../context';
import type { Methods } from './types';

type AuthMethods = Methods<'auth.status' | 'auth.startDeviceFlow' | 'auth.poll' | 'auth.cancel' | 'auth.signOut'>;

const toAccount = (a: AccountView): Account => ({ login: a.login, name: a.display_name, avatarUrl: a.avatar_url });

const secondsUntil = (iso: string) => Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));

function toDeviceFlow(started: StartDeviceAuthSuccess): DeviceFlow {
  return {
    userCode: started.user_code,
    verificationUri: started.verification_uri,
    expiresAt: started.expires_at,
    expiresIn: started.expires_in,
    interval: started.interval,
  };
}

const OFFLINE_O4 = errors.O4(NO_NETWORK).message;

/** O4 in the person's words: no network is said as such, not as a resolver's error code. */
function forPeople(o4Message: string): string {
  return o4Message.startsWith(OFFLINE_O4) ? 'GitHub is not reachable (no network). Check your internet connection, then try again.' : o4Message;
}

/** The catalogued error (O1–O4) behind an auth service's soft failure, so the dispatcher maps it. */
export function failureError(failure: SoftFailure): DomainError {
  if (failure.error === errors.O1().message) return new DomainError('O1', 'soft', failure.error, failure.hint ?? OAUTH_APP_HELP);
  if (failure.error === errors.O2().message) return errors.O2();
  if (failure.error === errors.O3('').message) return errors.O3(failure.message ?? 'The OS keychain is unavailable.');
  return new DomainError('O4', 'soft', forPeople(failure.error));
}

function toPollResult(result: PollDeviceAuthResult): PollResult {
  if (!('status' in result)) {
    // O3: GitHub approved, but the keychain would not keep the token.
    if (result.error === errors.O3('').message) return { status: 'error', message: result.message ?? null, account: null, interval: null };
    throw failureError(result);
  }
  switch (result.status) {
    case 'pending':
    case 'slow_down':
      return { status: result.status, message: null, account: null, interval: result.interval };
    case 'authorized':
      return { status: 'authorized', message: result.hint, account: toAccount(result.account), interval: null };
    default:
      return { status: result.status, message: 'error' in result ? forPeople(result.error) : null, account: null, interval: null };
  }
}

export function authMethods(ctx: ApiContext): AuthMethods {
  const { auth } = ctx.app;
  return {
    'auth.status': async () => {
      const status = await auth.status();
      const keychain = status.keychain;
      return {
        signedIn: status.signedIn,
        account: status.signedIn && status.account ? toAccount(status.account) : null,
        keychain: keychain.available
          ? { available: true, message: null }
          : { available: false, message: describeKeychainProblem(keychain.reason, keychain.fix) },
        clientConfigured: status.clientConfigured,
        pending: status.pending && {
          userCode: status.pending.userCode,
          verificationUri: status.pending.verificationUri,
          expiresAt: status.pending.expiresAt,
          // The lifetime at issue is not kept; what is left is what the countdown needs.
          expiresIn: secondsUntil(status.pending.expiresAt),
          interval: status.pending.interval,
        },
      };
    },

    'auth.startDeviceFlow': async ({ force }) => {
      const started = await auth.startDeviceAuth({ force: force ?? false });
      if (!started.success) throw failureError(started);
      return toDeviceFlow(started);
    },

    'auth.poll': async () => toPollResult((await auth.pollDeviceAuth()).result),
    'auth.cancel': () => ({ removed: auth.cancel() }),
    'auth.signOut': async () => ({ removed: (await auth.signOut()).signed_out }),
  };
}
