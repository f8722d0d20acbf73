// The one way the app talks to GitHub: global fetch with a timeout, our User-Agent, JSON
// bodies, and failures turned into a short detail for "GitHub could not be reached: <detail>".

export const DEFAULT_GITHUB_TIMEOUT_MS = 15_000;

export interface GitHubResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or null when there was none or it was not JSON. */
  body: unknown;
}

/** GitHub did not answer (network failure, timeout). `detail` completes the O4 phrase. */
export class GitHubUnreachableError extends Error {
  constructor(readonly detail: string) {
    super(`GitHub could not be reached: ${detail}`);
    this.name = 'GitHubUnreachableError';
  }
}

export interface GitHubHttpOptions {
  version: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface GitHubHttp {
  /** POST a form to a github.com endpoint (device code, access token), asking for JSON. */
  postForm(url: string, form: Record<string, string>): Promise<GitHubResponse>;
  /** GET an API endpoint, with the token when given and If-None-Match when an ETag is known. */
  getApi(url: string, options?: { token?: string | null; etag?: string | null }): Promise<GitHubResponse>;
}

/** How a failed fetch begins its detail when this machine has no network (no name lookup, no route). */
export const NO_NETWORK = 'no network';
const NO_NETWORK_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH']);

function networkDetail(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `no answer within ${Math.round(timeoutMs / 100) / 10} s`;
  const cause = err?.cause;
  if (cause?.code && NO_NETWORK_CODES.has(cause.code)) return `${NO_NETWORK} (${cause.code})`;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return cause?.message || err?.message || String(error);
}

export function createGitHubHttp(options: GitHubHttpOptions): GitHubHttp {
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS;
  const userAgent = `LetAgents-Desktop/${options.version}`;

  async function send(url: string, init: RequestInit): Promise<GitHubResponse> {
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      text = await response.text();
    } catch (error) {
      throw new GitHubUnreachableError(networkDetail(error, timeoutMs));
    }
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    return { status: response.status, headers: response.headers, body };
  }

  return {
    postForm: (url, form) =>
      send(url, {
        method: 'POST',
        // A redirect would re-send the device code somewhere we did not choose.
        redirect: 'error',
        headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': userAgent },
        body: new URLSearchParams(form).toString(),
      }),
    getApi: (url, { token, etag } = {}) => {
      const headers: Record<string, string> = {
        Accept: 'application/vnd.github+json',
        'User-Agent': userAgent,
        'X-GitHub-Api-Version': '2022-11-28',
      };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (etag) headers['If-None-Match'] = etag;
      return send(url, { method: 'GET', headers });
    },
  };
}

/** "HTTP 502" or GitHub's own error text, for an answer we did not expect. */
export function unexpectedAnswerDetail(response: GitHubResponse): string {
  const body = response.body as { error?: unknown; error_description?: unknown; message?: unknown } | null;
  const said = [body?.error_description, body?.message, body?.error].find((v) => typeof v === 'string' && v.trim());
  return said ? `HTTP ${response.status}: ${String(said)}` : `unexpected answer (HTTP ${response.status})`;
}
