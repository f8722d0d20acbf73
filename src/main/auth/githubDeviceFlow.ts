// GitHub's OAuth device flow on the wire: ask for a device code, exchange it for a token,
// read the signed-in user. Each call returns what GitHub said, classified; no state here.
import type { AccountView } from './authResults';
import type { GitHubEndpoints } from './githubSettings';
import { GitHubUnreachableError, unexpectedAnswerDetail, type GitHubHttp } from './githubHttp';

export const DEFAULT_POLL_INTERVAL_S = 5;
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  expiresInS: number;
  intervalS: number;
}

export type DeviceCodeAnswer = { ok: true; code: DeviceCode } | { ok: false; detail: string };

export type TokenAnswer =
  | { kind: 'pending' }
  | { kind: 'slow_down'; intervalS: number | null }
  | { kind: 'denied' }
  | { kind: 'expired' }
  | { kind: 'token'; token: string; expiresInS: number | null }
  | { kind: 'error'; detail: string };

export type UserAnswer = { kind: 'user'; account: AccountView } | { kind: 'unauthorized' } | { kind: 'error'; detail: string };

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const positive = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.ceil(v) : null);

/** POST <web>/login/device/code. */
export async function requestDeviceCode(http: GitHubHttp, endpoints: GitHubEndpoints, clientId: string): Promise<DeviceCodeAnswer> {
  let response;
  try {
    response = await http.postForm(`${endpoints.webUrl}/login/device/code`, { client_id: clientId, scope: endpoints.scopes });
  } catch (error) {
    if (error instanceof GitHubUnreachableError) return { ok: false, detail: error.detail };
    throw error;
  }
  const body = response.body as Record<string, unknown> | null;
  if (response.status !== 200 || !body || isText(body.error)) return { ok: false, detail: unexpectedAnswerDetail(response) };
  const expiresInS = positive(body.expires_in);
  if (!isText(body.device_code) || !isText(body.user_code) || !isText(body.verification_uri) || expiresInS === null) {
    return { ok: false, detail: 'the device code answer was incomplete' };
  }
  return {
    ok: true,
    code: {
      deviceCode: body.device_code,
      userCode: body.user_code,
      verificationUri: body.verification_uri,
      expiresInS,
      intervalS: positive(body.interval) ?? DEFAULT_POLL_INTERVAL_S,
    },
  };
}

/** POST <web>/login/oauth/access_token once. */
export async function requestAccessToken(
  http: GitHubHttp,
  endpoints: GitHubEndpoints,
  clientId: string,
  deviceCode: string,
): Promise<TokenAnswer> {
  let response;
  try {
    response = await http.postForm(`${endpoints.webUrl}/login/oauth/access_token`, {
      client_id: clientId,
      device_code: deviceCode,
      grant_type: DEVICE_GRANT,
    });
  } catch (error) {
    if (error instanceof GitHubUnreachableError) return { kind: 'error', detail: error.detail };
    throw error;
  }
  const body = response.body as Record<string, unknown> | null;
  switch (body?.error) {
    case 'authorization_pending':
      return { kind: 'pending' };
    case 'slow_down':
      return { kind: 'slow_down', intervalS: positive(body.interval) };
    case 'access_denied':
      return { kind: 'denied' };
    case 'expired_token':
      return { kind: 'expired' };
  }
  if (response.status === 200 && body && isText(body.access_token) && !isText(body.error)) {
    return { kind: 'token', token: body.access_token, expiresInS: positive(body.expires_in) };
  }
  return { kind: 'error', detail: unexpectedAnswerDetail(response) };
}

/** GET <api>/user with the token. */
export async function fetchUser(http: GitHubHttp, endpoints: GitHubEndpoints, token: string): Promise<UserAnswer> {
  let response;
  try {
    response = await http.getApi(`${endpoints.apiUrl}/user`, { token });
  } catch (error) {
    if (error instanceof GitHubUnreachableError) return { kind: 'error', detail: error.detail };
    throw error;
  }
  if (response.status === 401) return { kind: 'unauthorized' };
  const body = response.body as Record<string, unknown> | null;
  if (response.status !== 200 || !body || !isText(body.login)) return { kind: 'error', detail: unexpectedAnswerDetail(response) };
  return {
    kind: 'user',
    account: {
      id: typeof body.id === 'number' ? body.id : null,
      login: body.login,
      display_name: isText(body.name) ? body.name.trim() : null,
      avatar_url: isText(body.avatar_url) ? body.avatar_url : null,
    },
  };
}
