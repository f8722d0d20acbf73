// Files git would show as binary only because .gitattributes say so (`-diff`, `binary`): an
// agent writes those files too, and could hide a script's content from the person that way.
// Such a file whose copy in the worktree is text (a regular file with no NUL in its first
// 8,000 bytes, as git itself judges) is diffed again with --text, and its lines counted from that.
import { join } from 'node:path';
import { git, PLAIN_DIFF, type GitPlace } from './gitRun';
import { readRegularFile } from './regularFile';

/** How much of a file git looks at to call it binary. */
const GIT_TEXT_PROBE = 8_000;
/** Larger files stay as git shows them. */
const MAX_TEXT_BYTES = 8 * 1024 * 1024;
/** Most files diffed again per look (one git run each); past it they stay as git shows them. */
export const MAX_SHOWN_AS_TEXT = 50;

/** Of the files git shows as binary, those whose worktree copy is text, sorted (at most MAX_SHOWN_AS_TEXT). */
export async function textShownAsBinary(root: string, binary: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of [...binary].sort()) {
    if (out.length >= MAX_SHOWN_AS_TEXT) break;
    const file = await readRegularFile(join(root, path), GIT_TEXT_PROBE);
    if (file.kind === 'file' && file.size <= MAX_TEXT_BYTES && !file.bytes.includes(0)) out.push(path);
  }
  return out;
}

/** `path`'s diff as text, whatever its attributes say (`against`: what it is diffed against). */
export async function textDiff(place: GitPlace, against: readonly string[], path: string, env?: NodeJS.ProcessEnv): Promise<string> {
  return (await git(place, ['diff', ...PLAIN_DIFF, '--text', '--no-renames', '--no-color', ...against, '--', `:(literal)${path}`], env)).stdout;
}

/** Lines added and removed in a diff. */
export function countDiff(text: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) inHunk = false;
    else if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && line.startsWith('+')) added++;
    else if (inHunk && line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/** A pathspec for the whole work tree but `paths`. */
export function allBut(paths: readonly string[]): string[] {
  return paths.length === 0 ? [] : ['--', '.', ...paths.map((p) => `:(exclude,literal)${p}`)];
}
