// The board's GitHub facts: cached answers shown at once, refreshed in the background.
import { describe, expect, it } from 'vitest';
import { createGitHubData } from '../../../src/main/auth/githubData';
import { prStatusOf, repoVisibilityOf } from '../../../src/main/auth/githubFacts';
import { waitUntil } from '../../support/waitUntil';
import { APP_VERSION, setUp } from './harness';

describe('GitHub facts on the board', () => {
  it("shows a repo room's visibility as unknown first, then as GitHub answered it, without waiting on GitHub", async () => {
    const h = await setUp();
    h.github.addRepo('acme/widget', { visibility: 'public' });
    const data = createGitHubData({ auth: h.auth, version: APP_VERSION, env: h.github.env(), now: h.now });
    expect(repoVisibilityOf(data, 'github.com/acme/widget')).toBe('unknown');
    await waitUntil(() => repoVisibilityOf(data, 'github.com/acme/widget') !== 'unknown', 5_000, "GitHub's answer on the visibility");
    expect(repoVisibilityOf(data, 'github.com/acme/widget')).toBe('public');
    expect(repoVisibilityOf(data, 'team-lobby')).toBeNull();
  });

  it('has no facts where the app has no GitHub data', () => {
    expect(repoVisibilityOf(null, 'github.com/acme/widget')).toBeNull();
  });

  it("shows a task's pull request state once GitHub answered", async () => {
    const h = await setUp();
    h.github.addRepo('acme/widget', { visibility: 'public' });
    h.github.addPullRequest('acme/widget', 7, { state: 'closed', merged: true, draft: false, title: 'Fix login', headSha: 'abc123', statuses: ['success'] });
    const data = createGitHubData({ auth: h.auth, version: APP_VERSION, env: h.github.env(), now: h.now });
    const url = 'https://github.com/acme/widget/pull/7';
    expect(prStatusOf(data, url)).toBeNull();
    await waitUntil(() => prStatusOf(data, url) !== null, 5_000, "GitHub's answer on the pull request");
    expect(prStatusOf(data, url)).toMatchObject({ state: 'merged', draft: false });
    expect(prStatusOf(data, null)).toBeNull();
  });
});
