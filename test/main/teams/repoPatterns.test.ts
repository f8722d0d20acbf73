// Repo patterns decide which team a repo room goes to: the rules a person writes them by.
import { describe, expect, it } from 'vitest';
import { checkRepoPattern, checkRepoPatterns, matchesRepoPattern, RepoPatternError, teamForRepo } from '../../../src/main/teams/repoPatterns';

describe('repo patterns', () => {
  it('github.com/acme/* matches every repo of acme, and nothing else', () => {
    const pattern = checkRepoPattern('github.com/acme/*');
    expect(matchesRepoPattern(pattern, 'github.com/acme/app')).toBe(true);
    expect(matchesRepoPattern(pattern, 'github.com/acme/checkout-service')).toBe(true);
    expect(matchesRepoPattern(pattern, 'github.com/acme')).toBe(false);
    expect(matchesRepoPattern(pattern, 'github.com/acme/app/extra')).toBe(false);
    expect(matchesRepoPattern(pattern, 'github.com/acmecorp/app')).toBe(false);
    expect(matchesRepoPattern(pattern, 'gitlab.com/acme/app')).toBe(false);
  });

  it('ignores case on github.com, and only in the host elsewhere', () => {
    expect(checkRepoPattern('GitHub.com/Acme/*')).toBe('github.com/acme/*');
    expect(matchesRepoPattern(checkRepoPattern('GitHub.com/Acme/*'), 'github.com/acme/app')).toBe(true);
    expect(matchesRepoPattern('github.com/acme/*', 'GitHub.com/ACME/App')).toBe(true);
    const gitlab = checkRepoPattern('GitLab.Example.com/Platform/*');
    expect(gitlab).toBe('gitlab.example.com/Platform/*');
    expect(matchesRepoPattern(gitlab, 'gitlab.example.com/Platform/api')).toBe(true);
    expect(matchesRepoPattern(gitlab, 'GITLAB.example.com/Platform/api')).toBe(true);
    expect(matchesRepoPattern(gitlab, 'gitlab.example.com/platform/api')).toBe(false);
  });

  it('matches a whole repo exactly, * inside a part, and ** as the last part for any depth', () => {
    expect(matchesRepoPattern('github.com/acme/app', 'github.com/acme/app')).toBe(true);
    expect(matchesRepoPattern('github.com/acme/app', 'github.com/acme/app2')).toBe(false);
    expect(matchesRepoPattern('github.com/acme/svc-*', 'github.com/acme/svc-billing')).toBe(true);
    expect(matchesRepoPattern('github.com/acme/svc-*', 'github.com/acme/web')).toBe(false);
    expect(matchesRepoPattern('github.com/*/app', 'github.com/anyone/app')).toBe(true);
    const deep = checkRepoPattern('gitlab.example.com/platform/**');
    expect(matchesRepoPattern(deep, 'gitlab.example.com/platform/api')).toBe(true);
    expect(matchesRepoPattern(deep, 'gitlab.example.com/platform/team-a/api')).toBe(true);
    expect(matchesRepoPattern(deep, 'gitlab.example.com/platform')).toBe(false);
    // Dots and other regex characters are literal.
    expect(matchesRepoPattern('github.com/acme/a.b', 'github.com/acme/axb')).toBe(false);
  });

  it('accepts a pasted URL and a .git suffix', () => {
    expect(checkRepoPattern('https://github.com/Acme/app.git')).toBe('github.com/acme/app');
    expect(checkRepoPattern('  github.com/acme/*/  ')).toBe('github.com/acme/*');
  });

  it('refuses what is not a pattern, with a clear reason', () => {
    for (const bad of ['', 'acme', 'github.com//app', 'github.com/acme app', 'github.com/**/app', 'github.com/a**']) {
      expect(() => checkRepoPattern(bad), bad).toThrow(RepoPatternError);
    }
    expect(() => checkRepoPattern('acme')).toThrow(/needs a host and at least one more part/);
    expect(() => checkRepoPatterns(Array.from({ length: 51 }, (_, i) => `github.com/acme/r${i}`))).toThrow(/at most 50/);
  });

  it('drops blank lines and duplicates, keeping the order', () => {
    expect(checkRepoPatterns(['github.com/acme/*', '', 'GITHUB.com/acme/*', 'github.com/beta/*'])).toEqual(['github.com/acme/*', 'github.com/beta/*']);
  });

  it('the first team whose pattern matches wins; none matching gives null', () => {
    const teams = [
      { name: 'platform', patterns: ['github.com/acme/platform-*'] },
      { name: 'acme', patterns: ['github.com/acme/*'] },
      { name: 'beta', patterns: ['github.com/acme/platform-api', 'github.com/beta/*'] },
    ];
    expect(teamForRepo(teams, 'github.com/acme/platform-api')).toBe('platform');
    expect(teamForRepo(teams, 'github.com/acme/web')).toBe('acme');
    expect(teamForRepo(teams, 'github.com/beta/x')).toBe('beta');
    expect(teamForRepo(teams, 'github.com/gamma/x')).toBeNull();
    expect(teamForRepo([], 'github.com/acme/web')).toBeNull();
  });
});
