// Is a worktree's `.git` file still what the app wrote? The app's own git never reads it (it
// runs on the recorded git directory), but the agent can rewrite it, and a person acting on
// the worktree should know when it did: Merge, Discard and Remove refuse, naming why, until
// it is put back. Only the file itself is looked at; no git runs for the check.
import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readRegularFile } from './regularFile';

/** What the person asked for, as the refusal names it. */
export type WorktreeAction = 'merge' | 'discard' | 'remove';

const ACTION_WORDS: Readonly<Record<WorktreeAction, string>> = {
  merge: 'merges nothing from it',
  discard: 'discards nothing there',
  remove: 'removes nothing there',
};

const canonical = (path: string) => realpath(path).catch(() => resolve(path));

/** Null when `<root>/.git` names `gitDir`; otherwise why not and how to put it back. */
export async function gitLinkProblem(w: { readonly root: string; readonly gitDir: string }, action: WorktreeAction): Promise<string | null> {
  const path = join(w.root, '.git');
  const file = await readRegularFile(path, 4096);
  let what: string;
  if (file.kind === 'missing') what = `${path} is missing`;
  else if (file.kind === 'link') what = `${path} is a symbolic link (to ${file.target})`;
  else if (file.kind === 'folder') what = `${path} is a folder`;
  else if (file.kind !== 'file') what = `${path} is not a file`;
  else {
    const named = /^gitdir: (.+?)\r?\n?$/.exec(file.bytes.toString('utf8'))?.[1];
    if (named === undefined) what = `${path} names no git folder`;
    else if ((await canonical(resolve(w.root, named))) === (await canonical(w.gitDir))) return null;
    else what = `${path} points at ${resolve(w.root, named)}`;
  }
  return (
    `${what}, not at the git folder LetAgents made for this worktree (${w.gitDir}). Something in the worktree changed it ` +
    `(the agent can write there), so LetAgents ${ACTION_WORDS[action]}. Put back the one line "gitdir: ${w.gitDir}" in ${path}, then try again.`
  );
}
