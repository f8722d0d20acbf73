// The workspaces of the managed agents: made when an agent is added, made again for its
// next turn after a Discard, read for its Changes view and each turn's activity line, and
// merged, discarded or removed on the person's word. A worktree with work in it is never
// removed silently, and none whose `.git` file the agent changed is merged, discarded or removed.
import type { AgentChanges, AgentWorkspace, MergeResult } from '../../../shared/model/managedAgents';
import { appErrors } from '../../domain/errors';
import { describeChanges, mergeIntoBase, readChanges, removeWorktree, unsavedWork, type Worktree } from './changes';
import { gitLinkProblem, type WorktreeAction } from './gitLink';
import { personIdentity, updateFromBase, type UpdateOutcome } from './update';
import { createWorkspace, readWorkspace, worktreeExists, worktreeGitDir, worktreeRoot, writeWorkspace, type WorkspaceRecord, type WorkspaceRequest } from './workspace';

export class AgentWorkspaces {
  constructor(private readonly dataDir: string) {}

  /** Makes (and records) where a new agent works. */
  async create(request: WorkspaceRequest): Promise<AgentWorkspace> {
    const workspace = await createWorkspace(this.dataDir, request);
    writeWorkspace(this.dataDir, request.agentId, workspace);
    return shown(workspace);
  }

  /** Where it works; agents added before worktrees existed work in their folder. */
  of(agentId: string, folder: string): AgentWorkspace {
    return shown(this.record(agentId, folder));
  }

  /** Where its next turn runs: its worktree, made again (same branch) when it was discarded. */
  async forTurn(agentId: string, folder: string): Promise<AgentWorkspace> {
    const workspace = this.record(agentId, folder);
    if (workspace.kind !== 'worktree' || worktreeExists(this.dataDir, agentId)) return shown(workspace);
    const again = await createWorkspace(this.dataDir, { agentId, name: workspace.branch!.replace(/^letagents\//, ''), folder, writes: true, inFolder: false });
    // An agent given a worktree never works in the person's folder instead.
    if (again.kind !== 'worktree') throw appErrors.invalidInput(`Its worktree could not be made again, so it takes no turn: ${again.note ?? ''}`.trim());
    writeWorkspace(this.dataDir, agentId, again);
    return shown(again);
  }

  /** Its changes against the base; refused for an agent working in the folder itself. */
  async changes(agentId: string, folder: string, withDiff: boolean): Promise<AgentChanges> {
    return readChanges(await this.worktree(agentId, folder), withDiff);
  }

  /** The turn's activity line about its changes; null outside a worktree or when git fails. */
  async turnSummary(agentId: string, folder: string): Promise<string | null> {
    const workspace = this.record(agentId, folder);
    if (workspace.kind !== 'worktree' || !worktreeExists(this.dataDir, agentId)) return null;
    return this.worktree(agentId, folder).then((w) => readChanges(w, false)).then(describeChanges, () => null);
  }

  /** Merges its branch into its base, as the person; refused, naming why, when its `.git` was changed. */
  async merge(agentId: string, folder: string, agentName: string, personName: string): Promise<MergeResult> {
    const w = await this.worktree(agentId, folder);
    const problem = await gitLinkProblem(w, 'merge');
    const outcome = problem ? { merged: false as const, conflicts: [], reason: problem } : await mergeIntoBase(w, agentName, await personIdentity(w.repo, personName));
    return outcome.merged
      ? { merged: true, conflicts: [], reason: null, commit: outcome.commit }
      : { merged: false, conflicts: outcome.conflicts, reason: outcome.reason, commit: null };
  }

  /**
   * Brings its branch up to date with its base, in its worktree, as the person (after a refused
   * merge); `leaveConflicts`: a conflicting merge is started there for the agent to finish.
   */
  async update(agentId: string, folder: string, agentName: string, personName: string, leaveConflicts: boolean): Promise<UpdateOutcome> {
    const w = await this.checked(agentId, folder, 'merge');
    return updateFromBase(w, agentName, await personIdentity(w.repo, personName), leaveConflicts);
  }

  /** Throws away its worktree and branch (the person confirmed); its next turn starts fresh from the base. */
  async discard(agentId: string, folder: string): Promise<void> {
    await removeWorktree(await this.checked(agentId, folder, 'discard'));
  }

  /**
   * Before the agent goes: its worktree goes too when nothing in it would be lost or the
   * person confirmed; otherwise nothing is removed and the error says what is there.
   */
  async checkRemovable(agentId: string, folder: string, confirmed: boolean): Promise<void> {
    const workspace = this.record(agentId, folder);
    if (workspace.kind !== 'worktree' || !worktreeExists(this.dataDir, agentId)) return;
    const w = await this.checked(agentId, folder, 'remove');
    if (confirmed) return;
    const unsaved = await unsavedWork(w);
    if (unsaved) {
      throw appErrors.unmergedWork(
        `Its worktree holds work that is not in ${workspace.base}: ${unsaved}. Merge it, or confirm that it may be thrown away, and remove the agent again.`,
      );
    }
  }

  /** After the agent went: its worktree and branch go (checked or confirmed before). */
  async forget(agentId: string, folder: string): Promise<void> {
    const workspace = this.record(agentId, folder);
    if (workspace.kind === 'worktree' && worktreeExists(this.dataDir, agentId)) await removeWorktree(await this.worktree(agentId, folder));
  }

  private record(agentId: string, folder: string): WorkspaceRecord {
    return readWorkspace(this.dataDir, agentId) ?? { kind: 'folder', path: folder, repo: null, branch: null, base: null, note: null };
  }

  /** Its worktree, refused (naming why) when its `.git` no longer names the git directory the app made. */
  private async checked(agentId: string, folder: string, action: WorktreeAction): Promise<Worktree> {
    const w = await this.worktree(agentId, folder);
    const problem = await gitLinkProblem(w, action);
    if (problem) throw appErrors.invalidInput(problem);
    return w;
  }

  private async worktree(agentId: string, folder: string): Promise<Worktree> {
    const workspace = this.record(agentId, folder);
    if (workspace.kind !== 'worktree' || !workspace.repo || !workspace.branch || !workspace.base) {
      throw appErrors.invalidInput(`This agent works in the folder itself, not in a worktree of its own: ${workspace.note ?? ''}`.trim());
    }
    if (!worktreeExists(this.dataDir, agentId)) throw appErrors.invalidInput(`Its worktree is gone (discarded); its next turn makes a new one from ${workspace.base}.`);
    const root = worktreeRoot(this.dataDir, agentId);
    let gitDir = workspace.gitDir;
    if (!gitDir) {
      // Recorded before the app kept it: found once from the repository's side, then kept.
      gitDir = await worktreeGitDir(workspace.repo, root);
      writeWorkspace(this.dataDir, agentId, { ...workspace, gitDir });
    }
    return { root, gitDir, repo: workspace.repo, branch: workspace.branch, base: workspace.base };
  }
}

/** The workspace as the app shows it (the git directory stays the app's own business). */
function shown({ gitDir: _gitDir, ...workspace }: WorkspaceRecord): AgentWorkspace {
  return workspace;
}
