// What an agent changed in its worktree against its base (committed and uncommitted, new
// files included), read through a throwaway copy of the worktree's index so the agent's own
// staging is never touched; and the person's actions on it: merge into the base (refused,
// naming the conflicting files, when it does not merge cleanly; never forced) and discard.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentChanges, ChangedFile } from '../../../shared/model/managedAgents';
import { APP_IDENTITY, git, gitOut, PLAIN_DIFF } from './gitRun';
import { readRegularFile } from './regularFile';
import { allBut, countDiff, textDiff, textShownAsBinary } from './shownAsText';

export interface Worktree {
  /** The worktree's root. */
  readonly root: string;
  /** Its git directory, as recorded when the app made it: every git run in the worktree uses it. */
  readonly gitDir: string;
  readonly repo: string;
  readonly branch: string;
  readonly base: string;
}

/** Most diff text handed to the app; past it the view says it was cut. */
const MAX_DIFF_CHARS = 2_000_000;
/** New files larger than this count as binary (no lines read). */
const MAX_COUNTED_BYTES = 8 * 1024 * 1024;
/** New files read at once (each read is off the event loop; an agent can make many files). */
const FILES_AT_ONCE = 8;

/** Runs `fn` with GIT_INDEX_FILE on a copy of the worktree's index where every change is staged. */
async function withEverythingStaged<T>(w: Worktree, fn: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'la-index-'));
  const copy = join(dir, 'index');
  try {
    // The copy keeps the index's file stamps, so `add -A` only reads files that changed.
    try {
      copyFileSync(join(w.gitDir, 'index'), copy);
    } catch {
      // No index yet: git builds one.
    }
    const env = { GIT_INDEX_FILE: copy };
    await gitOut(w, ['add', '-A', '--', '.'], env);
    return await fn(env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Files and lines changed against the base; `diff` with the unified diff text. The stat
 * alone (each turn's log line) looks at the worktree's files as few times as it can, in git
 * runs side by side: numstat against the commit the branch left the base from (`--merge-base`:
 * committed and uncommitted tracked changes in one pass), the list of new files, and the count
 * of the agent's commits; new files' lines are counted here. Only when the agent has committed
 * does one more pass tell its uncommitted files apart. No index is written. A text file that
 * .gitattributes would show as binary is counted and shown as the text it is (shownAsText.ts).
 */
export async function readChanges(w: Worktree, withDiff: boolean): Promise<AgentChanges> {
  const [tracked, others, ahead] = await Promise.all([
    gitOut(w, ['diff', ...PLAIN_DIFF, '--numstat', '-z', '--no-renames', '--merge-base', w.base]),
    gitOut(w, ['ls-files', '--others', '--exclude-standard', '-z']),
    gitOut(w, ['rev-list', '--count', `${w.base}..HEAD`]),
  ]);
  const untracked = others.split('\0').filter((p) => p !== '');
  const changed = parseNumstat(tracked);
  for (const path of await textShownAsBinary(w.root, changed.filter((f) => f.binary).map((f) => f.path))) {
    changed[changed.findIndex((f) => f.path === path)] = { path, ...countDiff(await textDiff(w, ['--merge-base', w.base], path)), binary: false };
  }
  const files = [...changed, ...(await newFiles(w.root, untracked))].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Nothing committed: every tracked change is uncommitted.
  const uncommittedTracked = Number(ahead) === 0 ? changed.length : (await gitOut(w, ['diff', ...PLAIN_DIFF, '--name-only', '-z', '--no-renames', 'HEAD'])).split('\0').filter((p) => p !== '').length;
  let diff: string | null = null;
  let diffCut = false;
  let shownAsText: string[] = [];
  if (withDiff) {
    const whole = await withEverythingStaged(w, (env) => diffText(w, env));
    shownAsText = whole.shownAsText;
    diffCut = whole.text.length > MAX_DIFF_CHARS;
    diff = diffCut ? whole.text.slice(0, MAX_DIFF_CHARS) : whole.text;
  }
  return {
    branch: w.branch,
    base: w.base,
    path: w.root,
    files,
    added: files.reduce((n, f) => n + f.added, 0),
    removed: files.reduce((n, f) => n + f.removed, 0),
    commits: Number(ahead),
    uncommittedFiles: uncommittedTracked + untracked.length,
    diff,
    diffCut,
    attributeFiles: files.map((f) => f.path).filter((path) => path === '.gitattributes' || path.endsWith('/.gitattributes')),
    shownAsText,
  };
}

/** The diff of everything staged in `env`'s index against the base; text files attributes call binary as text, after the rest. */
async function diffText(w: Worktree, env: NodeJS.ProcessEnv): Promise<{ text: string; shownAsText: string[] }> {
  const against = ['--cached', '--merge-base', w.base];
  const binary = parseNumstat(await gitOut(w, ['diff', ...PLAIN_DIFF, '--numstat', '-z', '--no-renames', ...against], env)).filter((f) => f.binary);
  const asText = await textShownAsBinary(w.root, binary.map((f) => f.path));
  let text = (await git(w, ['diff', ...PLAIN_DIFF, '--no-renames', '--no-color', ...against, ...allBut(asText)], env)).stdout;
  for (const path of asText) text += await textDiff(w, against, path, env);
  return { text, shownAsText: asText };
}

async function newFiles(root: string, paths: readonly string[]): Promise<ChangedFile[]> {
  const out: ChangedFile[] = [];
  for (let i = 0; i < paths.length; i += FILES_AT_ONCE) out.push(...(await Promise.all(paths.slice(i, i + FILES_AT_ONCE).map((path) => newFile(root, path)))));
  return out;
}

/**
 * A file git does not track yet: all its lines are added (a binary one counts none). Only a
 * regular file is read, and only up to MAX_COUNTED_BYTES (a larger one counts as binary); a
 * symbolic link is the one line git records for it (its target), whatever it points at.
 */
async function newFile(root: string, path: string): Promise<ChangedFile> {
  const file = await readRegularFile(join(root, path), MAX_COUNTED_BYTES + 1);
  if (file.kind === 'link') return { path, added: 1, removed: 0, binary: false };
  if (file.kind !== 'file') return { path, added: 0, removed: 0, binary: false };
  if (file.size > MAX_COUNTED_BYTES || file.bytes.includes(0)) return { path, added: 0, removed: 0, binary: true };
  return { path, added: countLines(file.bytes), removed: 0, binary: false };
}

function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
  // A last line without a newline counts too.
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

function parseNumstat(text: string): ChangedFile[] {
  const out: ChangedFile[] = [];
  for (const record of text.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(record);
    if (!m) continue;
    // "-" is a binary file: changed, no line counts.
    out.push({ path: m[3], added: m[1] === '-' ? 0 : Number(m[1]), removed: m[2] === '-' ? 0 : Number(m[2]), binary: m[1] === '-' });
  }
  return out;
}

/** One line for the turn's activity: "Changed 2 files (+10 −3) on letagents/ada, 1 uncommitted". */
export function describeChanges(c: AgentChanges): string {
  if (c.files.length === 0) return `No changes on ${c.branch} against ${c.base}.`;
  const uncommitted = c.uncommittedFiles > 0 ? `, ${c.uncommittedFiles} uncommitted` : ', all committed';
  const names = c.files.slice(0, 5).map((f) => f.path).join(', ') + (c.files.length > 5 ? ', …' : '');
  return `Changes on ${c.branch} against ${c.base}: ${c.files.length} file${c.files.length === 1 ? '' : 's'} (+${c.added} −${c.removed})${uncommitted}: ${names}.`;
}

/** Commits whatever the agent left uncommitted on its branch (so a merge takes what the person saw). */
export async function commitLeftovers(w: Worktree, agentName: string): Promise<void> {
  if ((await gitOut(w, ['status', '--porcelain', '--ignore-submodules=dirty'])) === '') return;
  await gitOut(w, ['add', '-A']);
  await gitOut(w, [...APP_IDENTITY, 'commit', '--quiet', '--no-verify', '--no-gpg-sign', '-m', `${agentName}'s uncommitted work (committed by LetAgents for the merge)`]);
}

export type MergeProbe = { clean: true; tree: string } | { clean: false; conflicts: string[]; reason: string };

/** Whether `from` merges cleanly into `into` (git merge-tree: nothing is written but objects), and the files that conflict when not. */
export async function mergeProbe(w: Worktree, into: string, from: string): Promise<MergeProbe> {
  const probe = await git(w.repo, ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', into, from]);
  if (probe.ok) return { clean: true, tree: probe.stdout.split('\0')[0].trim() };
  const [, ...names] = probe.stdout.split('\0').filter((s) => s !== '');
  if (probe.code === 1 && names.length > 0) return { clean: false, conflicts: [...new Set(names)], reason: 'conflicts' };
  return { clean: false, conflicts: [], reason: probe.stderr || 'git could not merge.' };
}

export type MergeOutcome = { merged: true; commit: string } | { merged: false; conflicts: string[]; reason: string };

/**
 * Merges the agent's branch into its base, as `mergedBy` (git `-c` arguments naming the person;
 * personIdentity). A merge that would conflict is refused with the files named and nothing
 * changed but the agent's uncommitted work, committed on its branch first; where the base is
 * checked out, git's own merge runs there (it refuses, changing nothing, when the person's
 * uncommitted edits are in the way).
 */
export async function mergeIntoBase(w: Worktree, agentName: string, mergedBy: readonly string[] = APP_IDENTITY): Promise<MergeOutcome> {
  await commitLeftovers(w, agentName);
  const probe = await mergeProbe(w, w.base, w.branch);
  if (!probe.clean) return { merged: false, conflicts: probe.conflicts, reason: probe.conflicts.length > 0 ? `${w.branch} does not merge cleanly into ${w.base}: ${probe.conflicts.join(', ')} changed on both.` : probe.reason };
  const message = `Merge ${w.branch} (${agentName}) into ${w.base}`;
  const checkedOut = await baseCheckout(w);
  if (checkedOut) {
    const result = await git(checkedOut, [...mergedBy, 'merge', '--no-ff', '--no-edit', '--no-gpg-sign', '-m', message, w.branch]);
    if (!result.ok) {
      await git(checkedOut, ['merge', '--abort']);
      return { merged: false, conflicts: [], reason: `git refused to merge in ${checkedOut}: ${result.stderr || result.stdout.trim()}` };
    }
    return { merged: true, commit: await gitOut(checkedOut, ['rev-parse', 'HEAD']) };
  }
  // Nobody has the base checked out: the merge commit is made from the clean tree and the
  // branch moves only if it still points where it did.
  const { tree } = probe;
  const baseTip = await gitOut(w.repo, ['rev-parse', `refs/heads/${w.base}`]);
  const branchTip = await gitOut(w.repo, ['rev-parse', `refs/heads/${w.branch}`]);
  const commit = await gitOut(w.repo, [...mergedBy, 'commit-tree', '--no-gpg-sign', tree, '-p', baseTip, '-p', branchTip, '-m', message]);
  await gitOut(w.repo, ['update-ref', '-m', message, `refs/heads/${w.base}`, commit, baseTip]);
  return { merged: true, commit };
}

/** The worktree (the person's folder or another) that has the base branch checked out. */
async function baseCheckout(w: Worktree): Promise<string | null> {
  const list = await gitOut(w.repo, ['worktree', 'list', '--porcelain']);
  let path: string | null = null;
  for (const line of list.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${w.base}`) return path;
  }
  return null;
}

/** The worktree holds work that would be lost: uncommitted files, or commits not in the base. */
export async function unsavedWork(w: Worktree): Promise<string | null> {
  const status = (await git(w, ['status', '--porcelain', '--untracked-files=all', '--ignore-submodules=dirty'])).stdout.split('\n').filter((l) => l !== '');
  if (status.length > 0) return `${status.length} uncommitted file${status.length === 1 ? '' : 's'} in ${w.root}`;
  const merged = await git(w.repo, ['merge-base', '--is-ancestor', `refs/heads/${w.branch}`, `refs/heads/${w.base}`]);
  if (!merged.ok) return `commits on ${w.branch} not merged into ${w.base}`;
  return null;
}

/** Removes the worktree and its branch (the person confirmed, or nothing would be lost). */
export async function removeWorktree(w: Worktree): Promise<void> {
  await git(w.repo, ['worktree', 'remove', '--force', w.root]);
  rmSync(w.root, { recursive: true, force: true });
  await git(w.repo, ['worktree', 'prune']);
  await git(w.repo, ['branch', '-D', w.branch]);
}
