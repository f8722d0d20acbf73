// Recognising GitHub things in our data: a repo room id ("github.com/owner/repo") and a
// task's pull request URL ("https://github.com/owner/repo/pull/12").

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface PullRequestRef extends RepoRef {
  number: number;
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const validRepo = (owner: string, repo: string) => NAME.test(owner) && NAME.test(repo) && owner !== '.' && repo !== '..' && repo !== '.';

/** The repository of a repo room ("github.com/owner/repo"), or null for any other room. */
export function repoOfRoom(roomId: string): RepoRef | null {
  const match = /^github\.com\/([^/]+)\/([^/]+)$/i.exec(roomId.trim());
  if (!match) return null;
  const repo = match[2].replace(/\.git$/i, '');
  return validRepo(match[1], repo) ? { owner: match[1].toLowerCase(), repo: repo.toLowerCase() } : null;
}

/**
 * The pull request a URL points at, on github.com or on the configured web base (test
 * servers); null for anything else (GitLab, branches, issues, malformed numbers).
 */
export function pullRequestOfUrl(url: string, webUrl: string): PullRequestRef | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  const hosts = new Set(['github.com', 'www.github.com']);
  try {
    hosts.add(new URL(webUrl).host);
  } catch {
    // A malformed web base only means fewer hosts are recognised.
  }
  if (!hosts.has(parsed.host.toLowerCase()) || !/^https?:$/.test(parsed.protocol)) return null;
  const match = /^\/([^/]+)\/([^/]+)\/pull\/([1-9][0-9]{0,9})(?:\/.*)?$/.exec(parsed.pathname);
  if (!match || !validRepo(match[1], match[2])) return null;
  const number = Number(match[3]);
  return number <= 2_147_483_647 ? { owner: match[1].toLowerCase(), repo: match[2].toLowerCase(), number } : null;
}
