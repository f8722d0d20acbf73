// The exact result objects of the onboarding tools (mcp-tools.md §8), so the MCP tools and
// the app API are thin wrappers around the auth service.
import type { DomainError } from '../domain/errors';

/** The public part of the cached account, as agents and the person see it. */
export interface AccountView {
  id: number | null;
  login: string;
  display_name: string | null;
  avatar_url: string | null;
}

export interface SoftFailure {
  success: false;
  error: string;
  hint?: string;
  /** O3 only: why the keychain is unavailable and how to fix it. */
  message?: string;
}

/** A catalogued soft error (O1–O4) as a tool result: {success:false, error, hint?, ...extra}. */
export function softFailure(error: DomainError): SoftFailure {
  return {
    success: false,
    error: error.message,
    ...(error.hint ? { hint: error.hint } : {}),
    ...(error.extra as { message?: string } | undefined),
  };
}

export interface StartDeviceAuthSuccess {
  success: true;
  request_id: string;
  user_code: string;
  verification_uri: string;
  interval: number;
  expires_in: number;
  expires_at: string;
  suggested_room_id: string | null;
  message: string;
  reused_existing_request?: true;
}

export type StartDeviceAuthResult = StartDeviceAuthSuccess | SoftFailure;

export const DENIED_PHRASE = 'The sign-in request was denied on GitHub.';
export const EXPIRED_PHRASE = 'The code expired. Run start_device_auth again.';

export type PollDeviceAuthResult =
  | { success: true; status: 'pending' | 'slow_down'; interval: number; expires_in: number }
  | { success: false; status: 'denied'; error: typeof DENIED_PHRASE }
  | { success: false; status: 'expired'; error: typeof EXPIRED_PHRASE }
  /** O4 */
  | { success: false; status: 'error'; error: string }
  /** The part of the authorized result the auth service knows; the MCP layer adds auto_joined_room and agent_identity. */
  | { success: true; status: 'authorized'; account: AccountView; expires_at: string | null; hint: string }
  /** O2 (nothing pending) or O3 (keychain could not store the token). */
  | SoftFailure;

export interface PollDeviceAuthOutcome {
  result: PollDeviceAuthResult;
  /** The room start_device_auth suggested, for auto_join (given, else suggested, current or config room). */
  suggestedRoomId: string | null;
}

export interface ClearSavedAuthResult {
  success: true;
  signed_out: boolean;
  env_token_still_present: false;
}

/** clear_saved_auth from an agent: the same shape, never signed out (issue 15: signing out is the person's act). */
export interface ForgetPendingSignInResult extends ClearSavedAuthResult {
  signed_out: false;
  pending_sign_in_cleared: boolean;
  hint: string;
}

export const SIGN_OUT_IS_THE_PERSONS =
  'Signing out of GitHub is up to the person: they do it in the LetAgents app (Settings). This call only forgets a pending sign-in request.';

/** The auth part of get_onboarding_status. */
export interface OnboardingAuthStatus {
  authenticated: boolean;
  auth_source: 'keychain' | 'none';
  auth_hint: string;
  account: AccountView | null;
  token_expires_at: string | null;
  pending_device_auth: { request_id: string; user_code: string; verification_uri: string; expires_at: string } | null;
  keychain_available: boolean;
  github_client_configured: boolean;
}

export function startMessage(verificationUri: string, userCode: string): string {
  return `Open ${verificationUri} and enter code ${userCode}, then run poll_device_auth.`;
}
