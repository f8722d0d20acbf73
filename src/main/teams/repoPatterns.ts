// Repo patterns: which team a repo room goes to (team-rooms.md §3). A pattern is written
// like a repo room id, `host/owner/repo`, with `*` for any characters inside one part
// (`github.com/acme/*`) and `**` as the last part for any number of parts
// (`gitlab.example.com/platform/**` takes subgroups too). Hosts never depend on case, and
// neither does anything on github.com (its room ids are lower case); elsewhere the path
// does. The first team, in display order, with a matching pattern wins. Pure functions.
import { DomainError } from '../domain/errors';

export const MAX_PATTERNS_PER_TEAM = 50;
const MAX_PATTERN_CHARS = 300;

export class RepoPatternError extends DomainError {
  constructor(message: string) {
    super('repo_pattern_invalid', 'hard', message);
    this.name = 'RepoPatternError';
  }
}

/** The pattern as stored (scheme and `.git` dropped, case folded where it never matters); RepoPatternError otherwise. */
export function checkRepoPattern(input: string): string {
  const trimmed = input.trim().replace(/^https?:\/\//i, '').replace(/\/+$/, '').replace(/\.git$/i, '');
  const shown = input.trim().slice(0, 80);
  if (trimmed.length === 0 || trimmed.length > MAX_PATTERN_CHARS || /[\s\p{Cc}]/u.test(trimmed)) {
    throw new RepoPatternError(`"${shown}" is not a repo pattern: write host/owner/repo with * for any part, e.g. github.com/acme/*.`);
  }
  const parts = trimmed.split('/');
  if (parts.length < 2 || parts.some((p) => p === '')) {
    throw new RepoPatternError(`"${shown}" is not a repo pattern: it needs a host and at least one more part, e.g. github.com/acme/*.`);
  }
  if (parts.slice(0, -1).includes('**') || parts.some((p) => p.includes('**') && p !== '**')) {
    throw new RepoPatternError(`"${shown}": ** stands for any number of parts and may only be the last part, e.g. gitlab.example.com/platform/**.`);
  }
  const host = parts[0].toLowerCase();
  const pattern = [host, ...parts.slice(1)].join('/');
  return host === 'github.com' ? pattern.toLowerCase() : pattern;
}

/** Every pattern checked, duplicates dropped, order kept; at most MAX_PATTERNS_PER_TEAM. */
export function checkRepoPatterns(inputs: readonly string[]): string[] {
  const patterns = [...new Set(inputs.filter((p) => p.trim() !== '').map(checkRepoPattern))];
  if (patterns.length > MAX_PATTERNS_PER_TEAM) throw new RepoPatternError(`A team has at most ${MAX_PATTERNS_PER_TEAM} repo patterns.`);
  return patterns;
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** True when the repo room id (`host/owner/repo`) matches the (checked) pattern. */
export function matchesRepoPattern(pattern: string, repoId: string): boolean {
  const parts = pattern.split('/');
  const anyDepth = parts.at(-1) === '**';
  const fixed = anyDepth ? parts.slice(0, -1) : parts;
  const body = fixed.map((part) => escape(part).replace(/\*/g, '[^/]*')).join('/');
  const host = repoId.split('/', 1)[0].toLowerCase();
  const caseless = host === 'github.com';
  const regex = new RegExp(`^${body}${anyDepth ? '(?:/[^/]+)+' : ''}$`, caseless ? 'i' : '');
  // The host part is compared without case everywhere.
  return regex.test(`${host}${repoId.slice(host.length)}`);
}

/** The first team (in the order given) with a pattern that matches `repoId`; null when none does. */
export function teamForRepo(teams: ReadonlyArray<{ readonly name: string; readonly patterns: readonly string[] }>, repoId: string): string | null {
  return teams.find((team) => team.patterns.some((pattern) => matchesRepoPattern(pattern, repoId)))?.name ?? null;
}
