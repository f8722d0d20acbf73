// Where a managed agent works. An agent that may write in a folder inside a git repository
// gets its own worktree under the data folder, on a branch of its own (letagents/<name>)
// started from the folder's current branch, so two agents never edit the same files. A
// read-only agent, one whose person chose "work in the folder itself", a folder outside a
// repository or a machine without git: the agent works in the folder, and the record says why.
// The record keeps the worktree's git directory: the app's own git there runs on it, never on
// whatever the worktree's `.git` file (the agent's to write) names.
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { AgentWorkspace } from '../../../shared/model/managedAgents';
import { freeBranchName } from './branchName';
import { git, gitOut } from './gitRun';

/** What the app records about where an agent works: its workspace, and for a worktree the git directory `git worktree add` made for it. */
export type WorkspaceRecord = AgentWorkspace & { readonly gitDir?: string | null };

export interface WorkspaceRequest {
  readonly agentId: string;
  /** The agent's name (its branch is named after it). */
  readonly name: string;
  readonly folder: string;
  /** Its permissions let it change files. */
  readonly writes: boolean;
  /** The person chose "work in the folder itself". */
  readonly inFolder: boolean;
}

/** Where worktrees and their records live: <data folder>/worktrees. */
export function worktreesDir(dataDir: string): string {
  return join(dataDir, 'worktrees');
}

const recordPath = (dataDir: string, agentId: string) => join(worktreesDir(dataDir), `${agentId}.json`);

export function readWorkspace(dataDir: string, agentId: string): WorkspaceRecord | null {
  try {
    return JSON.parse(readFileSync(recordPath(dataDir, agentId), 'utf8')) as WorkspaceRecord;
  } catch {
    return null;
  }
}

export function writeWorkspace(dataDir: string, agentId: string, workspace: WorkspaceRecord): void {
  mkdirSync(worktreesDir(dataDir), { recursive: true, mode: 0o700 });
  const path = recordPath(dataDir, agentId);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(workspace, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

const inFolder = (folder: string, note: string): AgentWorkspace => ({ kind: 'folder', path: folder, repo: null, branch: null, base: null, note });

/** Decides where the agent works and makes its worktree when it gets one. Never throws. */
export async function createWorkspace(dataDir: string, request: WorkspaceRequest): Promise<WorkspaceRecord> {
  if (!request.writes) return inFolder(request.folder, 'Works in the folder itself: it may only read.');
  if (request.inFolder) return inFolder(request.folder, 'Works in the folder itself, as chosen.');
  const top = await git(request.folder, ['rev-parse', '--show-toplevel']);
  if (top.missing) return inFolder(request.folder, 'Works in the folder itself: git was not found on this machine.');
  if (!top.ok) return inFolder(request.folder, 'Works in the folder itself: the folder is not in a git repository.');
  const repo = top.stdout.trim();
  const base = await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (!base.ok) return inFolder(request.folder, 'Works in the folder itself: the repository has no branch checked out (detached HEAD).');
  const hasCommit = await git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (!hasCommit.ok) return inFolder(request.folder, 'Works in the folder itself: the repository has no commit yet.');
  try {
    const branch = await freeBranchName(repo, request.name);
    const tree = join(worktreesDir(dataDir), request.agentId);
    mkdirSync(worktreesDir(dataDir), { recursive: true, mode: 0o700 });
    await gitOut(repo, ['worktree', 'add', '--quiet', '-b', branch, tree, base.stdout.trim()]);
    // An agent added for a subfolder works in the same subfolder of its worktree.
    const path = join(tree, relative(repo, request.folder));
    return { kind: 'worktree', path, repo, branch, base: base.stdout.trim(), note: null, gitDir: await worktreeGitDir(repo, tree) };
  } catch (error) {
    return inFolder(request.folder, `Works in the folder itself: its worktree could not be made (${(error as Error).message}).`);
  }
}

/** The root of the worktree (the agent's path may be a subfolder of it). */
export function worktreeRoot(dataDir: string, agentId: string): string {
  return join(worktreesDir(dataDir), agentId);
}

/**
 * The worktree's folder is still there (Discard, or a person by hand, removes it). Its `.git`
 * file does not count: the agent can delete that, and its next turn must still run there.
 */
export function worktreeExists(dataDir: string, agentId: string): boolean {
  try {
    return lstatSync(worktreeRoot(dataDir, agentId)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The git directory git made for the worktree at `tree`: the one in the repository's
 * worktrees/ whose `gitdir` file names `tree`/.git. Read from the repository's side only (the
 * agent cannot write there); also for records made before the app kept it.
 */
export async function worktreeGitDir(repo: string, tree: string): Promise<string> {
  // Relative to the repository when git prints it so (older git has no --path-format).
  const common = resolve(repo, await gitOut(repo, ['rev-parse', '--git-common-dir']));
  const wanted = join(realpathSync(tree), '.git');
  const admin = join(common, 'worktrees');
  for (const name of readdirSync(admin)) {
    try {
      if (readFileSync(join(admin, name, 'gitdir'), 'utf8').trim() === wanted) return join(admin, name);
    } catch {
      // Not a worktree's folder.
    }
  }
  throw new Error(`git keeps no worktree at ${tree} in ${common}`);
}
