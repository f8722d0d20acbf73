// Read-only GitHub API calls for the app's GitHub data: the signed-in token when there is
// one, ETags (a 304 costs no rate limit), a pause while the rate limit is used up, and a
// 401 that signs the person out before the call is retried anonymously.
import { createHash } from 'node:crypto';
import { GitHubUnreachableError, unexpectedAnswerDetail, type GitHubHttp } from './githubHttp';

export type ApiAnswer =
  | { kind: 'ok'; body: unknown }
  | { kind: 'not_found' }
  | { kind: 'rate_limited'; retryAt: string }
  | { kind: 'unreachable'; detail: string };

export interface GitHubApiDeps {
  http: GitHubHttp;
  apiUrl: () => string | null;
  token: () => Promise<string | null>;
  /** Called when GitHub answers 401 to a call made with the token. */
  onUnauthorized: () => Promise<void>;
  now: () => number;
}

const MAX_ETAGS = 500;

export function createGitHubApi(deps: GitHubApiDeps) {
  let blockedUntilMs = 0;
  const etags = new Map<string, { etag: string; body: unknown }>();

  /** Reads the rate-limit headers; true when this answer itself was refused for the limit. */
  function noteRateLimit(status: number, headers: Headers): boolean {
    const remaining = headers.get('x-ratelimit-remaining');
    const reset = Number(headers.get('x-ratelimit-reset'));
    const retryAfter = Number(headers.get('retry-after'));
    const exhausted = remaining === '0';
    if (exhausted && Number.isFinite(reset) && reset > 0) blockedUntilMs = Math.max(blockedUntilMs, reset * 1000);
    const refused = (status === 403 || status === 429) && (exhausted || retryAfter > 0);
    if (refused && retryAfter > 0) blockedUntilMs = Math.max(blockedUntilMs, deps.now() + retryAfter * 1000);
    if (refused && blockedUntilMs <= deps.now()) blockedUntilMs = deps.now() + 60_000;
    return refused;
  }

  async function getOnce(path: string, token: string | null): Promise<ApiAnswer | { kind: 'unauthorized' }> {
    const base = deps.apiUrl();
    if (!base) return { kind: 'unreachable', detail: 'the GitHub API URL is not valid' };
    const key = `${token ? createHash('sha256').update(token).digest('hex').slice(0, 16) : 'anonymous'} ${path}`;
    const known = etags.get(key);
    let response;
    try {
      response = await deps.http.getApi(`${base}${path}`, { token, etag: known?.etag });
    } catch (error) {
      if (error instanceof GitHubUnreachableError) return { kind: 'unreachable', detail: error.detail };
      throw error;
    }
    if (noteRateLimit(response.status, response.headers)) return { kind: 'rate_limited', retryAt: new Date(blockedUntilMs).toISOString() };
    if (response.status === 401 && token) return { kind: 'unauthorized' };
    if (response.status === 304 && known) return { kind: 'ok', body: known.body };
    if (response.status === 404) return { kind: 'not_found' };
    if (response.status !== 200) return { kind: 'unreachable', detail: unexpectedAnswerDetail(response) };
    const etag = response.headers.get('etag');
    if (etag) {
      if (etags.size >= MAX_ETAGS) etags.delete(etags.keys().next().value as string);
      etags.set(key, { etag, body: response.body });
    }
    return { kind: 'ok', body: response.body };
  }

  return {
    /** GET `path` (e.g. "/repos/o/r"); never throws for GitHub's or the network's failures. */
    async get(path: string): Promise<ApiAnswer> {
      if (deps.now() < blockedUntilMs) return { kind: 'rate_limited', retryAt: new Date(blockedUntilMs).toISOString() };
      const token = await deps.token();
      const answer = await getOnce(path, token);
      if (answer.kind !== 'unauthorized') return answer;
      await deps.onUnauthorized();
      const anonymous = await getOnce(path, null);
      return anonymous.kind === 'unauthorized' ? { kind: 'unreachable', detail: 'GitHub refused the request (HTTP 401)' } : anonymous;
    },
  };
}

export type GitHubApi = ReturnType<typeof createGitHubApi>;
