// The branch an agent's worktree is on: letagents/<name> made safe by git's own rules for ref
// names (`git check-ref-format`): agent names may hold `.`, `:` and `/`, so "x.lock", "a..b" or
// a name cut just after a dot would otherwise be refused by git, and the agent would be left
// editing the person's checkout. git itself checks the result; "agent" stands in if it refuses.
import { git } from './gitRun';

const PREFIX = 'letagents/';
const MAX_SLUG = 40;

/** The name as one lowercase component: a–z, 0–9, `.`, `_`, `-`; no leading or trailing dot or dash, no `..`, no `.lock` end. */
export function branchSlug(name: string): string {
  const trim = (s: string) => s.replace(/^[-.]+|[-.]+$/g, '');
  const slug = trim(trim(name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/\.{2,}/g, '.')).slice(0, MAX_SLUG));
  return slug.replace(/\.lock$/, '-lock') || 'agent';
}

/** letagents/<slug>, or letagents/<slug>-2, … when that branch exists. */
export async function freeBranchName(repo: string, name: string): Promise<string> {
  let slug = branchSlug(name);
  if (!(await git(repo, ['check-ref-format', '--branch', `${PREFIX}${slug}`])).ok) slug = 'agent';
  for (let n = 1; ; n++) {
    const branch = `${PREFIX}${slug}${n === 1 ? '' : `-${n}`}`;
    if (!(await git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).ok) return branch;
  }
}
