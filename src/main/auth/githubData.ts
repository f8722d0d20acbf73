// The GitHub data the app shows: a repo room's visibility and the state of pull requests
// linked to tasks (open, merged, closed, with one check status). Answers are cached for a
// few minutes; when GitHub cannot answer, the last known answer is kept.
import type { AuthService } from './authService';
import { createGitHubApi, type ApiAnswer } from './githubApi';
import { combineChecks, type CheckStatus } from './githubChecks';
import { createGitHubHttp } from './githubHttp';
import { pullRequestOfUrl, repoOfRoom } from './githubRefs';
import { resolveGitHubEndpoints } from './githubSettings';

export const GITHUB_DATA_TTL_MS = 5 * 60_000;

/** Why an answer is "unknown" (or old): the thing is not on GitHub, not found, or GitHub did not answer. */
export type UnknownReason = 'not_github' | 'not_found' | 'rate_limited' | 'unreachable';

export interface RepoVisibility {
  repo: string | null;
  visibility: 'public' | 'private' | 'internal' | 'unknown';
  checked_at: string | null;
  reason: UnknownReason | null;
}

export interface PullRequestState {
  url: string;
  repo: string | null;
  number: number | null;
  state: 'open' | 'merged' | 'closed' | 'unknown';
  draft: boolean | null;
  title: string | null;
  checks: CheckStatus;
  /** Who is asked to review it now (logins, and teams as org/slug). */
  review_requests: string[];
  checked_at: string | null;
  reason: UnknownReason | null;
}

export interface GitHubDataOptions {
  auth: Pick<AuthService, 'githubToken' | 'handleUnauthorized'>;
  version: string;
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  now?: () => number;
  ttlMs?: number;
  timeoutMs?: number;
}

type Failure = Exclude<ApiAnswer, { kind: 'ok' }>;
const reasonOf = (answer: Failure): UnknownReason => (answer.kind === 'rate_limited' ? 'rate_limited' : answer.kind);

export function createGitHubData(options: GitHubDataOptions) {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? GITHUB_DATA_TTL_MS;
  const endpoints = () => resolveGitHubEndpoints(env);
  const api = createGitHubApi({
    http: createGitHubHttp({ version: options.version, fetch: options.fetch, timeoutMs: options.timeoutMs }),
    apiUrl: () => {
      const e = endpoints();
      return e.ok ? e.endpoints.apiUrl : null;
    },
    token: () => options.auth.githubToken(),
    onUnauthorized: () => options.auth.handleUnauthorized(),
    now,
  });
  const cache = new Map<string, { value: RepoVisibility | PullRequestState; at: number }>();
  const inFlight = new Map<string, Promise<RepoVisibility | PullRequestState>>();

  /** Cached answer while fresh; else one fetch per key at a time; a failure keeps the last answer. */
  async function cached<T extends RepoVisibility | PullRequestState>(key: string, fetchFresh: () => Promise<T>): Promise<T> {
    const hit = cache.get(key);
    if (hit && now() - hit.at < ttlMs) return hit.value as T;
    const running = inFlight.get(key);
    if (running) return running as Promise<T>;
    const run = fetchFresh()
      .then((value) => {
        const last = cache.get(key)?.value as T | undefined;
        const failed = value.reason === 'rate_limited' || value.reason === 'unreachable';
        if (failed && last && last.reason === null) return last;
        if (!failed) cache.set(key, { value, at: now() });
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, run);
    return run;
  }

  async function fetchVisibility(owner: string, repo: string): Promise<RepoVisibility> {
    const name = `${owner}/${repo}`;
    const answer = await api.get(`/repos/${owner}/${repo}`);
    if (answer.kind !== 'ok') return { repo: name, visibility: 'unknown', checked_at: null, reason: reasonOf(answer) };
    const body = answer.body as { visibility?: string; private?: boolean } | null;
    const visibility =
      body?.visibility === 'public' || body?.visibility === 'private' || body?.visibility === 'internal'
        ? body.visibility
        : body?.private === true
          ? 'private'
          : body?.private === false
            ? 'public'
            : 'unknown';
    return { repo: name, visibility, checked_at: new Date(now()).toISOString(), reason: null };
  }

  async function fetchPullRequest(url: string, owner: string, repo: string, number: number): Promise<PullRequestState> {
    const base = { url, repo: `${owner}/${repo}`, number };
    const answer = await api.get(`/repos/${owner}/${repo}/pulls/${number}`);
    if (answer.kind !== 'ok') {
      return { ...base, state: 'unknown', draft: null, title: null, checks: 'unknown', review_requests: [], checked_at: null, reason: reasonOf(answer) };
    }
    const pr = answer.body as {
      state?: string; merged?: boolean; merged_at?: string | null; draft?: boolean; title?: string; head?: { sha?: string };
      requested_reviewers?: Array<{ login?: unknown }>; requested_teams?: Array<{ slug?: unknown }>;
    } | null;
    const state = pr?.merged || pr?.merged_at ? 'merged' : pr?.state === 'open' ? 'open' : pr?.state === 'closed' ? 'closed' : 'unknown';
    const sha = pr?.head?.sha;
    let checks: CheckStatus = 'unknown';
    if (sha && /^[0-9a-f]{7,64}$/i.test(sha)) {
      const [statuses, runs] = await Promise.all([
        api.get(`/repos/${owner}/${repo}/commits/${sha}/status`),
        api.get(`/repos/${owner}/${repo}/commits/${sha}/check-runs`),
      ]);
      if (statuses.kind === 'ok' && runs.kind === 'ok') checks = combineChecks(statuses.body, runs.body);
    }
    return {
      ...base,
      state,
      draft: typeof pr?.draft === 'boolean' ? pr.draft : null,
      title: typeof pr?.title === 'string' ? pr.title : null,
      checks,
      review_requests: [
        ...(pr?.requested_reviewers ?? []).map((r) => r?.login).filter((l): l is string => typeof l === 'string'),
        ...(pr?.requested_teams ?? []).map((t) => t?.slug).filter((l): l is string => typeof l === 'string').map((slug) => `${owner}/${slug}`),
      ],
      checked_at: new Date(now()).toISOString(),
      reason: null,
    };
  }

  const webUrl = () => {
    const e = endpoints();
    return e.ok ? e.endpoints.webUrl : 'https://github.com';
  };

  return {
    /** Visibility of a repo room's repository ("github.com/owner/repo"). */
    repoVisibility(roomId: string): Promise<RepoVisibility> {
      const ref = repoOfRoom(roomId);
      if (!ref) return Promise.resolve({ repo: null, visibility: 'unknown', checked_at: null, reason: 'not_github' });
      return cached(`repo ${ref.owner}/${ref.repo}`, () => fetchVisibility(ref.owner, ref.repo));
    },

    /** State and checks of the pull request at `prUrl`. */
    pullRequestState(prUrl: string): Promise<PullRequestState> {
      const ref = pullRequestOfUrl(prUrl, webUrl());
      if (!ref) {
        return Promise.resolve({ url: prUrl, repo: null, number: null, state: 'unknown', draft: null, title: null, checks: 'unknown', review_requests: [], checked_at: null, reason: 'not_github' });
      }
      return cached(`pr ${ref.owner}/${ref.repo}#${ref.number}`, () => fetchPullRequest(prUrl, ref.owner, ref.repo, ref.number));
    },

    /** The last known visibility without calling GitHub (for synchronous readers such as get_board). */
    peekRepoVisibility(roomId: string): RepoVisibility | null {
      const ref = repoOfRoom(roomId);
      return ref ? ((cache.get(`repo ${ref.owner}/${ref.repo}`)?.value as RepoVisibility | undefined) ?? null) : null;
    },

    /** The last known pull request state without calling GitHub. */
    peekPullRequestState(prUrl: string): PullRequestState | null {
      const ref = pullRequestOfUrl(prUrl, webUrl());
      return ref ? ((cache.get(`pr ${ref.owner}/${ref.repo}#${ref.number}`)?.value as PullRequestState | undefined) ?? null) : null;
    },
  };
}

export type GitHubData = ReturnType<typeof createGitHubData>;
