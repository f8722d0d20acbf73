// What a working directory says about rooms: its .letagents.json room, the repo room
// derived from its git origin, and its branches. Git runs asynchronously with fixed
// arguments, no shell and a 5 s timeout (src/main/domain/git.ts).
import { readRepoContext } from '../domain/git';
import { findRepoConfig, type RepoConfigContents } from '../domain/rooms/repoConfig';
import { normalizeGitRemote } from '../domain/rooms/roomIds';

export interface WorkingDirContext {
  cwd: string;
  repoRoot: string | null;
  configPath: string | null;
  /** The file's parsed room field or why it was not read; never its text. */
  configContents: RepoConfigContents | null;
  configuredRoom: string | null;
  derivedRepoRoom: string | null;
  currentBranch: string | null;
  defaultBranch: string | null;
}

export async function inspectWorkingDir(cwd: string): Promise<WorkingDirContext> {
  const git = await readRepoContext(cwd);
  const config = findRepoConfig(cwd);
  return {
    cwd,
    repoRoot: git.root,
    configPath: config?.path ?? null,
    configContents: config?.contents ?? null,
    configuredRoom: config?.room ?? null,
    derivedRepoRoom: git.originUrl ? normalizeGitRemote(git.originUrl) : null,
    currentBranch: git.currentBranch,
    defaultBranch: git.defaultBranch,
  };
}

/** The room a working directory points at: its config room, else its repo room. */
export async function detectRoomFromContext(cwd: string): Promise<string | null> {
  const context = await inspectWorkingDir(cwd);
  return context.configuredRoom ?? context.derivedRepoRoom;
}
