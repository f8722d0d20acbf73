// FAKE GitHub for tests: a local HTTP server on 127.0.0.1 that imitates GitHub's device-code,
// access-token and user endpoints, plus the repo, pull and commit-status endpoints. It is not
// GitHub. Each test scripts it: approve, slow_down, deny, expire, 401, rate limits, or a
// network failure by closing it.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitHubUser {
  id: number;
  login: string;
  name: string | null;
  avatar_url: string;
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: Record<string, string>;
}

type DeviceState = 'pending' | 'approved' | 'denied' | 'expired';
type OneShot = { error: string; interval?: number } | { status: number; body: unknown };

interface Device {
  deviceCode: string;
  userCode: string;
  state: DeviceState;
  user: FakeGitHubUser;
  queue: OneShot[];
  used: boolean;
}

export interface FakeRepo {
  visibility: 'public' | 'private' | 'internal';
}

export interface FakePullRequest {
  state: 'open' | 'closed';
  merged?: boolean;
  draft?: boolean;
  title?: string;
  headSha: string;
  /** Commit statuses ("success", "failure", "pending", "error"). */
  statuses?: string[];
  /** Check runs: status and conclusion as GitHub reports them. */
  checkRuns?: Array<{ status: 'queued' | 'in_progress' | 'completed'; conclusion?: string | null }>;
  /** Logins asked to review it. */
  requestedReviewers?: string[];
}

export const FAKE_CLIENT_ID = 'Iv1.fake-github-client';
export const DEFAULT_FAKE_USER: FakeGitHubUser = { id: 583231, login: 'ada', name: 'Ada Lovelace', avatar_url: 'https://avatars.example/ada.png' };

export interface FakeGitHub {
  /** Web base (device code, access token) and API base (under /api, so a mixed-up base fails). */
  readonly webUrl: string;
  readonly apiUrl: string;
  /** The environment that points the app at this fake. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  readonly requests: FakeRequest[];
  /** Requests to one path, e.g. "/login/oauth/access_token". */
  requestsTo(path: string): FakeRequest[];
  /** Overrides the next device-code answer (fields of GitHub's JSON, or a raw status and body). */
  nextDeviceCode: Partial<{ verification_uri: string; interval: number; expires_in: number }> | { status: number; body: unknown } | null;
  /** The user the next approval signs in. */
  user: FakeGitHubUser;
  /** Seconds until issued tokens expire (GitHub App tokens); undefined gives non-expiring tokens. */
  tokenExpiresIn: number | undefined;
  approve(user?: FakeGitHubUser): void;
  deny(): void;
  expire(): void;
  /** The next access-token poll answers slow_down (with GitHub's new interval when given). */
  slowDownOnce(interval?: number): void;
  /** The next access-token poll answers with this raw status and body. */
  answerPollOnce(status: number, body: unknown): void;
  readonly issuedTokens: string[];
  /** Every issued token stops working: authenticated calls get 401. */
  revokeTokens(): void;
  addRepo(fullName: string, repo: FakeRepo): void;
  addPullRequest(fullName: string, number: number, pr: FakePullRequest): void;
  /** Requests left (each API call uses one) and the reset time in epoch seconds; at 0 calls answer 403. */
  rateLimit: { remaining: number; reset: number };
  /** When true, requests are accepted but never answered. */
  hang: boolean;
  /** Stops the server and drops open connections: later calls fail like a network outage. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const devices = new Map<string, Device>();
  const tokens = new Map<string, FakeGitHubUser>();
  const repos = new Map<string, FakeRepo>();
  const pulls = new Map<string, FakePullRequest>();
  let latest: Device | null = null;
  const pollOverrides: OneShot[] = [];

  const server = createServer((req, res) => {
    void handle(req, res).catch((error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };

  const fake: FakeGitHub = {
    webUrl: base,
    apiUrl: `${base}/api`,
    env: (extra = {}) => ({
      LETAGENTS_GITHUB_CLIENT_ID: FAKE_CLIENT_ID,
      LETAGENTS_GITHUB_WEB_URL: base,
      LETAGENTS_GITHUB_API_URL: `${base}/api`,
      ...extra,
    }),
    requests: [],
    requestsTo: (path) => fake.requests.filter((r) => r.path === path),
    nextDeviceCode: null,
    user: DEFAULT_FAKE_USER,
    tokenExpiresIn: undefined,
    approve(user) {
      if (!latest) throw new Error('fake GitHub: no device code to approve');
      latest.state = 'approved';
      latest.user = user ?? fake.user;
    },
    deny() {
      if (latest) latest.state = 'denied';
    },
    expire() {
      if (latest) latest.state = 'expired';
    },
    slowDownOnce(interval) {
      pollOverrides.push({ error: 'slow_down', ...(interval ? { interval } : {}) });
    },
    answerPollOnce(status, body) {
      pollOverrides.push({ status, body });
    },
    issuedTokens: [],
    revokeTokens() {
      tokens.clear();
    },
    addRepo(fullName, repo) {
      repos.set(fullName.toLowerCase(), repo);
    },
    addPullRequest(fullName, number, pr) {
      pulls.set(`${fullName.toLowerCase()}#${number}`, pr);
    },
    rateLimit: { remaining: 5000, reset: 0 },
    hang: false,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const raw = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(raw));
    fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, form });
    if (fake.hang) return;
    if (req.method === 'POST' && url.pathname === '/login/device/code') return deviceCode(res, form);
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') return accessToken(res, form);
    if (req.method === 'GET' && url.pathname.startsWith('/api/')) return api(req, res, url.pathname.slice(4));
    json(res, 404, { message: 'Not Found' });
  }

  function deviceCode(res: ServerResponse, form: Record<string, string>): void {
    const override = fake.nextDeviceCode;
    fake.nextDeviceCode = null;
    if (override && 'status' in override) return json(res, override.status, override.body);
    if (form.client_id !== FAKE_CLIENT_ID) return json(res, 200, { error: 'incorrect_client_credentials', error_description: 'The client_id is not valid.' });
    const device: Device = {
      deviceCode: randomBytes(20).toString('hex'),
      userCode: `${randomBytes(2).toString('hex')}-${randomBytes(2).toString('hex')}`.toUpperCase(),
      state: 'pending',
      user: fake.user,
      queue: [],
      used: false,
    };
    devices.set(device.deviceCode, device);
    latest = device;
    json(res, 200, {
      device_code: device.deviceCode,
      user_code: device.userCode,
      verification_uri: override?.verification_uri ?? `${base}/login/device`,
      expires_in: override?.expires_in ?? 900,
      interval: override?.interval ?? 5,
    });
  }

  function accessToken(res: ServerResponse, form: Record<string, string>): void {
    if (form.grant_type !== 'urn:ietf:params:oauth:grant-type:device_code') return json(res, 200, { error: 'unsupported_grant_type' });
    const device = devices.get(form.device_code);
    if (form.client_id !== FAKE_CLIENT_ID || !device) return json(res, 200, { error: 'incorrect_device_code' });
    const once = pollOverrides.shift();
    if (once) return 'status' in once ? json(res, once.status, once.body) : json(res, 200, once);
    if (device.used) return json(res, 200, { error: 'expired_token' });
    if (device.state === 'pending') return json(res, 200, { error: 'authorization_pending' });
    if (device.state === 'denied') return json(res, 200, { error: 'access_denied', error_description: 'The user has denied your application access.' });
    if (device.state === 'expired') return json(res, 200, { error: 'expired_token' });
    device.used = true;
    const token = `gho_FAKE${randomBytes(18).toString('hex')}`;
    tokens.set(token, device.user);
    fake.issuedTokens.push(token);
    json(res, 200, { access_token: token, token_type: 'bearer', scope: form.scope ?? 'read:user', ...(fake.tokenExpiresIn ? { expires_in: fake.tokenExpiresIn } : {}) });
  }

  function api(req: IncomingMessage, res: ServerResponse, path: string): void {
    // Like GitHub: each call uses one request, and the headers say how many are left after it.
    const refused = fake.rateLimit.remaining <= 0;
    if (!refused) fake.rateLimit.remaining -= 1;
    const limit = { 'x-ratelimit-remaining': String(fake.rateLimit.remaining), 'x-ratelimit-reset': String(fake.rateLimit.reset) };
    if (refused) return json(res, 403, { message: 'API rate limit exceeded' }, limit);
    const auth = req.headers.authorization;
    const user = auth?.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (auth && !user) return json(res, 401, { message: 'Bad credentials' }, limit);
    const answer = (body: unknown): void => {
      const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 20)}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag, ...limit });
        res.end();
        return;
      }
      json(res, 200, body, { etag, ...limit });
    };
    if (path === '/user') return user ? answer(user) : json(res, 401, { message: 'Requires authentication' }, limit);
    const m = /^\/repos\/([^/]+)\/([^/]+)(?:\/(pulls)\/(\d+)|\/commits\/([0-9a-f]+)\/(status|check-runs))?$/.exec(path);
    const repo = m && repos.get(`${m[1]}/${m[2]}`.toLowerCase());
    if (!m || !repo || (repo.visibility !== 'public' && !user)) return json(res, 404, { message: 'Not Found' }, limit);
    const full = `${m[1]}/${m[2]}`.toLowerCase();
    if (!m[3] && !m[5]) return answer({ full_name: full, private: repo.visibility !== 'public', visibility: repo.visibility });
    if (m[3]) {
      const pr = pulls.get(`${full}#${m[4]}`);
      if (!pr) return json(res, 404, { message: 'Not Found' }, limit);
      return answer({
        number: Number(m[4]),
        state: pr.state,
        merged: pr.merged ?? false,
        merged_at: pr.merged ? '2026-05-01T09:00:00Z' : null,
        draft: pr.draft ?? false,
        title: pr.title ?? `PR ${m[4]}`,
        head: { sha: pr.headSha },
        requested_reviewers: (pr.requestedReviewers ?? []).map((login, i) => ({ login, id: 1_000 + i, type: 'User' })),
        requested_teams: [],
      });
    }
    const pr = [...pulls.entries()].find(([key, p]) => key.startsWith(`${full}#`) && p.headSha === m[5])?.[1];
    if (m[6] === 'status') {
      const statuses = pr?.statuses ?? [];
      const state = statuses.includes('failure') || statuses.includes('error') ? 'failure' : statuses.length && statuses.every((s) => s === 'success') ? 'success' : 'pending';
      return answer({ state, total_count: statuses.length, statuses: statuses.map((s, i) => ({ state: s, context: `ci/${i}` })) });
    }
    const runs = pr?.checkRuns ?? [];
    return answer({ total_count: runs.length, check_runs: runs.map((r, i) => ({ id: i + 1, status: r.status, conclusion: r.conclusion ?? null })) });
  }

  return fake;
}
