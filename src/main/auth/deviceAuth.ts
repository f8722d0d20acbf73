// The pending device authorization (in memory only, data-model.md §7) and the rules of
// start_device_auth and poll_device_auth: reuse, the poll interval, slow_down, local
// expiry, and each GitHub outcome (mcp-tools.md §8).
import { randomBytes } from 'node:crypto';
import { errors } from '../domain/errors';
import { describeKeychainProblem, type KeychainAvailability } from '../secrets/secretStore';
import {
  DENIED_PHRASE,
  EXPIRED_PHRASE,
  softFailure,
  startMessage,
  type PollDeviceAuthOutcome,
  type PollDeviceAuthResult,
  type StartDeviceAuthResult,
} from './authResults';
import { requestAccessToken, requestDeviceCode } from './githubDeviceFlow';
import type { GitHubHttp } from './githubHttp';
import { OAUTH_APP_HELP, isOnWebOrigin, type EndpointsResult, type GitHubEndpoints } from './githubSettings';

/** GitHub asks clients that poll too fast to add this many seconds. */
const SLOW_DOWN_STEP_S = 5;

export interface PendingDeviceAuth {
  readonly requestId: string;
  readonly userCode: string;
  readonly verificationUri: string;
  readonly intervalS: number;
  readonly expiresAtMs: number;
  readonly suggestedRoomId: string | null;
}

interface PendingState extends PendingDeviceAuth {
  deviceCode: string;
  intervalS: number;
  suggestedRoomId: string | null;
  lastContactAtMs: number;
  clientId: string;
  endpoints: GitHubEndpoints;
  /** Aborted when the request is cancelled or replaced, so a waiting loop stops at once. */
  abort: AbortController;
  inFlight: Promise<PollDeviceAuthOutcome> | null;
}

export interface DeviceAuthDeps {
  http: GitHubHttp;
  now: () => number;
  /** The client id and endpoints as configured right now. */
  config(): Promise<{ clientId: string | null; endpoints: EndpointsResult }>;
  keychainAvailability(): Promise<KeychainAvailability>;
  /** Turns a fresh token into a signed-in account (fetch user, keychain, cache). */
  completeSignIn(token: string, expiresInS: number | null, endpoints: GitHubEndpoints): Promise<PollDeviceAuthResult>;
}

export interface StartInput {
  roomId?: string | null;
  suggestedRoomId?: string | null;
  force?: boolean;
}

export const notConfigured = () => ({ ...softFailure(errors.O1()), hint: OAUTH_APP_HELP });
const o4 = (detail: string) => softFailure(errors.O4(detail));

export function createDeviceAuth(deps: DeviceAuthDeps) {
  let pending: PendingState | null = null;
  const secondsLeft = (p: PendingState) => Math.max(0, Math.ceil((p.expiresAtMs - deps.now()) / 1000));
  const iso = (ms: number) => new Date(ms).toISOString();

  function drop(p: PendingState | null): void {
    if (!p) return;
    p.abort.abort();
    if (pending === p) pending = null;
  }

  function startResult(p: PendingState, reused: boolean): StartDeviceAuthResult {
    return {
      success: true,
      request_id: p.requestId,
      user_code: p.userCode,
      verification_uri: p.verificationUri,
      interval: p.intervalS,
      expires_in: secondsLeft(p),
      expires_at: iso(p.expiresAtMs),
      suggested_room_id: p.suggestedRoomId,
      message: startMessage(p.verificationUri, p.userCode),
      ...(reused ? { reused_existing_request: true as const } : {}),
    };
  }

  async function start(input: StartInput = {}): Promise<StartDeviceAuthResult> {
    const { clientId, endpoints } = await deps.config();
    if (!clientId) return notConfigured();
    const live = pending && deps.now() < pending.expiresAtMs ? pending : null;
    if (live && !input.force) {
      if (input.roomId) live.suggestedRoomId = input.roomId;
      return startResult(live, true);
    }
    if (!endpoints.ok) return o4(endpoints.detail);
    // Refuse before the person types a code GitHub would hand us a token for that we cannot keep.
    const keychain = await deps.keychainAvailability();
    if (!keychain.available) return softFailure(errors.O3(describeKeychainProblem(keychain.reason, keychain.fix)));
    const answer = await requestDeviceCode(deps.http, endpoints.endpoints, clientId);
    if (!answer.ok) return o4(answer.detail);
    const code = answer.code;
    if (!isOnWebOrigin(code.verificationUri, endpoints.endpoints.webUrl)) {
      return o4(`the verification page ${code.verificationUri} is not on ${new URL(endpoints.endpoints.webUrl).origin}`);
    }
    drop(pending);
    const now = deps.now();
    pending = {
      requestId: `device_${randomBytes(16).toString('hex')}`,
      deviceCode: code.deviceCode,
      userCode: code.userCode,
      verificationUri: code.verificationUri,
      intervalS: code.intervalS,
      expiresAtMs: now + code.expiresInS * 1000,
      suggestedRoomId: input.roomId ?? input.suggestedRoomId ?? null,
      lastContactAtMs: now,
      clientId,
      endpoints: endpoints.endpoints,
      abort: new AbortController(),
      inFlight: null,
    };
    return startResult(pending, false);
  }

  async function askGitHub(p: PendingState): Promise<PollDeviceAuthResult> {
    const answer = await requestAccessToken(deps.http, p.endpoints, p.clientId, p.deviceCode);
    p.lastContactAtMs = deps.now();
    // Cancelled or replaced while GitHub answered: that request is no longer ours to finish.
    if (pending !== p) return softFailure(errors.O2());
    switch (answer.kind) {
      case 'pending':
        return { success: true, status: 'pending', interval: p.intervalS, expires_in: secondsLeft(p) };
      case 'slow_down':
        p.intervalS = Math.max(p.intervalS + SLOW_DOWN_STEP_S, answer.intervalS ?? 0);
        return { success: true, status: 'slow_down', interval: p.intervalS, expires_in: secondsLeft(p) };
      case 'denied':
        drop(p);
        return { success: false, status: 'denied', error: DENIED_PHRASE };
      case 'expired':
        drop(p);
        return { success: false, status: 'expired', error: EXPIRED_PHRASE };
      case 'error':
        // Kept pending: the code is still good, so polling again may succeed.
        return { ...o4(answer.detail), status: 'error' };
      case 'token':
        drop(p);
        return deps.completeSignIn(answer.token, answer.expiresInS, p.endpoints);
    }
  }

  async function poll(input: { requestId?: string | null } = {}): Promise<PollDeviceAuthOutcome> {
    const p = pending;
    if (!p || (input.requestId && input.requestId !== p.requestId)) {
      return { result: softFailure(errors.O2()), suggestedRoomId: null };
    }
    if (deps.now() >= p.expiresAtMs) {
      drop(p);
      return { result: { success: false, status: 'expired', error: EXPIRED_PHRASE }, suggestedRoomId: p.suggestedRoomId };
    }
    if (p.inFlight) return p.inFlight;
    if (deps.now() < p.lastContactAtMs + p.intervalS * 1000) {
      return { result: { success: true, status: 'pending', interval: p.intervalS, expires_in: secondsLeft(p) }, suggestedRoomId: p.suggestedRoomId };
    }
    p.inFlight = askGitHub(p)
      .then((result) => ({ result, suggestedRoomId: p.suggestedRoomId }))
      .finally(() => {
        p.inFlight = null;
      });
    return p.inFlight;
  }

  return {
    start,
    poll,
    /** Forgets the pending request; true when there was one. */
    cancel(): boolean {
      const had = pending !== null;
      drop(pending);
      return had;
    },
    /** The live pending request, or null (an expired one counts as none). */
    current(): PendingDeviceAuth | null {
      return pending && deps.now() < pending.expiresAtMs ? pending : null;
    },
    /** Aborts when the current request is cancelled, replaced or finished. */
    signal(): AbortSignal | null {
      return pending?.abort.signal ?? null;
    },
  };
}

export type DeviceAuth = ReturnType<typeof createDeviceAuth>;
