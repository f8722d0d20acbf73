import { describe, expect, it } from 'vitest';
import { isOnWebOrigin, resolveClientId, resolveGitHubEndpoints } from '../../../src/main/auth/githubSettings';
import { pullRequestOfUrl, repoOfRoom } from '../../../src/main/auth/githubRefs';

describe('GitHub settings', () => {
  it('default to github.com, api.github.com and read:user', () => {
    expect(resolveGitHubEndpoints({})).toEqual({
      ok: true,
      endpoints: { webUrl: 'https://github.com', apiUrl: 'https://api.github.com', scopes: 'read:user' },
    });
  });

  it('accept plain http only for 127.0.0.1 and localhost', () => {
    expect(resolveGitHubEndpoints({ LETAGENTS_GITHUB_WEB_URL: 'http://127.0.0.1:4567/' })).toMatchObject({ ok: true, endpoints: { webUrl: 'http://127.0.0.1:4567' } });
    expect(resolveGitHubEndpoints({ LETAGENTS_GITHUB_API_URL: 'http://localhost:9/api' })).toMatchObject({ ok: true, endpoints: { apiUrl: 'http://localhost:9/api' } });
    expect(resolveGitHubEndpoints({ LETAGENTS_GITHUB_API_URL: 'http://10.0.0.5/api' })).toEqual({
      ok: false,
      detail: 'LETAGENTS_GITHUB_API_URL must be an https URL (plain http only for 127.0.0.1 or localhost): http://10.0.0.5/api',
    });
    expect(resolveGitHubEndpoints({ LETAGENTS_GITHUB_WEB_URL: 'ftp://github.com' })).toMatchObject({ ok: false });
    expect(resolveGitHubEndpoints({ LETAGENTS_GITHUB_WEB_URL: 'nonsense' })).toEqual({ ok: false, detail: 'LETAGENTS_GITHUB_WEB_URL is not a URL: nonsense' });
  });

  it('take the client id from the app settings first, then the environment', () => {
    expect(resolveClientId('Iv1.settings', { LETAGENTS_GITHUB_CLIENT_ID: 'Iv1.env' })).toBe('Iv1.settings');
    expect(resolveClientId(null, { LETAGENTS_GITHUB_CLIENT_ID: ' Iv1.env ' })).toBe('Iv1.env');
    expect(resolveClientId('  ', {})).toBeNull();
  });

  it('recognise the verification page only on the web origin', () => {
    expect(isOnWebOrigin('https://github.com/login/device', 'https://github.com')).toBe(true);
    expect(isOnWebOrigin('https://github.com.evil.example/login/device', 'https://github.com')).toBe(false);
    expect(isOnWebOrigin('http://github.com/login/device', 'https://github.com')).toBe(false);
    expect(isOnWebOrigin('not a url', 'https://github.com')).toBe(false);
  });
});

describe('GitHub references in rooms and tasks', () => {
  it('find the repository of a repo room', () => {
    expect(repoOfRoom('github.com/Ada/Engine')).toEqual({ owner: 'ada', repo: 'engine' });
    expect(repoOfRoom('github.com/ada/engine.git')).toEqual({ owner: 'ada', repo: 'engine' });
    expect(repoOfRoom('github.com/ada')).toBeNull();
    expect(repoOfRoom('ABCX-7291')).toBeNull();
    expect(repoOfRoom('github.com/ada/..')).toBeNull();
  });

  it('find the pull request of a URL on GitHub or the configured web base', () => {
    expect(pullRequestOfUrl('https://github.com/ada/engine/pull/12#discussion', 'https://github.com')).toEqual({ owner: 'ada', repo: 'engine', number: 12 });
    expect(pullRequestOfUrl('http://127.0.0.1:5000/ada/engine/pull/3', 'http://127.0.0.1:5000')).toEqual({ owner: 'ada', repo: 'engine', number: 3 });
    expect(pullRequestOfUrl('https://example.com/ada/engine/pull/3', 'https://github.com')).toBeNull();
    expect(pullRequestOfUrl('https://github.com/ada/engine/pull/01', 'https://github.com')).toBeNull();
    expect(pullRequestOfUrl('https://github.com/ada/engine/pull/2147483648', 'https://github.com')).toBeNull();
  });
});
