import { describe, expect, it } from 'vitest';
import { createGitHubData } from '../../../src/main/auth/githubData';
import { APP_VERSION, setUp, signIn, type Harness } from './harness';

function dataFor(h: Harness) {
  return createGitHubData({ auth: h.auth, version: APP_VERSION, env: h.github.env(), now: h.now });
}

const apiCalls = (h: Harness) => h.github.requests.filter((r) => r.path.startsWith('/api/repos/')).length;

describe("a repo room's visibility", () => {
  it('is public for a public repository, without signing in', async () => {
    const h = await setUp();
    h.github.addRepo('Ada/Engine', { visibility: 'public' });
    expect(await dataFor(h).repoVisibility('github.com/ada/engine')).toEqual({
      repo: 'ada/engine',
      visibility: 'public',
      checked_at: '2026-05-01T09:00:00.000Z',
      reason: null,
    });
    expect(h.github.requestsTo('/api/repos/ada/engine')[0].headers.authorization).toBeUndefined();
  });

  it('is private for a private repository the signed-in person can see', async () => {
    const h = await setUp();
    h.github.addRepo('ada/secret', { visibility: 'private' });
    const token = await signIn(h);
    expect(await dataFor(h).repoVisibility('github.com/ada/secret')).toMatchObject({ visibility: 'private', reason: null });
    expect(h.github.requestsTo('/api/repos/ada/secret')[0].headers.authorization).toBe(`Bearer ${token}`);
  });

  it('is unknown (not found) for a repository GitHub will not show', async () => {
    const h = await setUp();
    h.github.addRepo('ada/secret', { visibility: 'private' });
    expect(await dataFor(h).repoVisibility('github.com/ada/secret')).toEqual({ repo: 'ada/secret', visibility: 'unknown', checked_at: null, reason: 'not_found' });
  });

  it('is not asked of GitHub for rooms that are not GitHub repositories', async () => {
    const h = await setUp();
    expect(await dataFor(h).repoVisibility('team-lobby')).toEqual({ repo: null, visibility: 'unknown', checked_at: null, reason: 'not_github' });
    expect(await dataFor(h).repoVisibility('gitlab.com/ada/engine')).toMatchObject({ reason: 'not_github' });
    expect(h.github.requests).toHaveLength(0);
  });

  it('is cached for five minutes, then revalidated with its ETag', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    const data = dataFor(h);
    await data.repoVisibility('github.com/ada/engine');
    h.advance(299);
    await data.repoVisibility('github.com/ada/engine');
    expect(apiCalls(h)).toBe(1);
    expect(data.peekRepoVisibility('github.com/ada/engine')).toMatchObject({ visibility: 'public' });
    h.advance(1);
    expect(await data.repoVisibility('github.com/ada/engine')).toMatchObject({ visibility: 'public', checked_at: '2026-05-01T09:05:00.000Z' });
    const calls = h.github.requestsTo('/api/repos/ada/engine');
    expect(calls).toHaveLength(2);
    expect(calls[1].headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
  });

  it('keeps the last known answer when GitHub becomes unreachable', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    const data = dataFor(h);
    await data.repoVisibility('github.com/ada/engine');
    await h.github.close();
    h.advance(600);
    expect(await data.repoVisibility('github.com/ada/engine')).toMatchObject({ visibility: 'public', checked_at: '2026-05-01T09:00:00.000Z', reason: null });
    expect(await data.repoVisibility('github.com/ada/other')).toMatchObject({ visibility: 'unknown', reason: 'unreachable' });
  });
});

describe('rate limits', () => {
  it('stop all GitHub data calls until the limit resets', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    h.github.addRepo('ada/other', { visibility: 'public' });
    const resetAt = h.now() / 1000 + 600;
    h.github.rateLimit = { remaining: 0, reset: resetAt };
    const data = dataFor(h);
    expect(await data.repoVisibility('github.com/ada/engine')).toMatchObject({ visibility: 'unknown', reason: 'rate_limited' });
    expect(await data.repoVisibility('github.com/ada/other')).toMatchObject({ visibility: 'unknown', reason: 'rate_limited' });
    expect(apiCalls(h)).toBe(1);
    h.github.rateLimit = { remaining: 4999, reset: resetAt + 3600 };
    h.advance(599);
    await data.repoVisibility('github.com/ada/other');
    expect(apiCalls(h)).toBe(1);
    h.advance(1);
    expect(await data.repoVisibility('github.com/ada/other')).toMatchObject({ visibility: 'public' });
    expect(apiCalls(h)).toBe(2);
  });

  it('are respected as soon as an answer says none are left', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    h.github.addRepo('ada/other', { visibility: 'public' });
    const data = dataFor(h);
    h.github.rateLimit = { remaining: 1, reset: h.now() / 1000 + 60 };
    expect(await data.repoVisibility('github.com/ada/engine')).toMatchObject({ visibility: 'public' });
    expect(await data.repoVisibility('github.com/ada/other')).toMatchObject({ visibility: 'unknown', reason: 'rate_limited' });
    expect(await data.pullRequestState('https://github.com/ada/engine/pull/1')).toMatchObject({ state: 'unknown', reason: 'rate_limited' });
    expect(apiCalls(h)).toBe(1);
  });
});

describe('the state of a pull request linked to a task', () => {
  it('is open with passing checks', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    h.github.addPullRequest('ada/engine', 12, {
      state: 'open',
      title: 'Add the difference engine',
      headSha: 'abc1234',
      statuses: ['success'],
      checkRuns: [{ status: 'completed', conclusion: 'success' }, { status: 'completed', conclusion: 'skipped' }],
    });
    const url = 'https://github.com/ada/engine/pull/12';
    expect(await dataFor(h).pullRequestState(url)).toEqual({
      url,
      repo: 'ada/engine',
      number: 12,
      state: 'open',
      draft: false,
      title: 'Add the difference engine',
      checks: 'success',
      review_requests: [],
      checked_at: '2026-05-01T09:00:00.000Z',
      reason: null,
    });
  });

  it('is merged, closed, pending or failing as GitHub says', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    h.github.addPullRequest('ada/engine', 1, { state: 'closed', merged: true, headSha: 'aaa1111', checkRuns: [{ status: 'completed', conclusion: 'success' }] });
    h.github.addPullRequest('ada/engine', 2, { state: 'closed', headSha: 'bbb2222', statuses: ['failure'] });
    h.github.addPullRequest('ada/engine', 3, { state: 'open', draft: true, headSha: 'ccc3333', checkRuns: [{ status: 'in_progress' }, { status: 'completed', conclusion: 'success' }] });
    h.github.addPullRequest('ada/engine', 4, { state: 'open', headSha: 'ddd4444', checkRuns: [{ status: 'in_progress' }, { status: 'completed', conclusion: 'timed_out' }] });
    h.github.addPullRequest('ada/engine', 5, { state: 'open', headSha: 'eee5555' });
    const data = dataFor(h);
    const pr = (n: number) => data.pullRequestState(`https://github.com/ada/engine/pull/${n}/files`);
    expect(await pr(1)).toMatchObject({ state: 'merged', checks: 'success' });
    expect(await pr(2)).toMatchObject({ state: 'closed', checks: 'failure' });
    expect(await pr(3)).toMatchObject({ state: 'open', draft: true, checks: 'pending' });
    expect(await pr(4)).toMatchObject({ state: 'open', checks: 'failure' });
    expect(await pr(5)).toMatchObject({ state: 'open', checks: 'none' });
  });

  it('is unknown for a URL that is not a GitHub pull request', async () => {
    const h = await setUp();
    const data = dataFor(h);
    for (const url of ['https://gitlab.com/ada/engine/-/merge_requests/3', 'https://github.com/ada/engine/issues/3', 'not a url', 'https://github.com/ada/engine/pull/0']) {
      expect(await data.pullRequestState(url)).toMatchObject({ state: 'unknown', checks: 'unknown', reason: 'not_github' });
    }
    expect(h.github.requests).toHaveLength(0);
  });

  it('is unknown (not found) for a pull request that does not exist', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    expect(await dataFor(h).pullRequestState('https://github.com/ada/engine/pull/99')).toMatchObject({ state: 'unknown', reason: 'not_found' });
  });

  it('is fetched once for callers asking at the same time', async () => {
    const h = await setUp();
    h.github.addRepo('ada/engine', { visibility: 'public' });
    h.github.addPullRequest('ada/engine', 7, { state: 'open', headSha: 'fff7777' });
    const data = dataFor(h);
    const url = 'https://github.com/ada/engine/pull/7';
    expect(data.peekPullRequestState(url)).toBeNull();
    await Promise.all([data.pullRequestState(url), data.pullRequestState(url), data.pullRequestState(url)]);
    expect(h.github.requestsTo('/api/repos/ada/engine/pulls/7')).toHaveLength(1);
    expect(data.peekPullRequestState(url)).toMatchObject({ state: 'open' });
  });
});
