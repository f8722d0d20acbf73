// The workspaces of the managed agents: made when an agent is added, made again for its
// next turn after a Discard, read for its Changes view and each turn's activity line, and
// merged, discarded or removed on the person's word. A worktree with work in it is never
// removed silently.
import type { AgentChanges, AgentWorkspace, MergeResult } from '../../../shared/model/managedAgents';
import { appErrors } from '../../domain/errors';
import { describeChanges, mergeIntoBase, readChanges, removeWorktree, unsavedWork, type Worktree } from './changes';
import { createWorkspace, readWorkspace, worktreeExists, worktreeRoot, writeWorkspace, type WorkspaceRequest } from './workspace';

export class AgentWorkspaces {
  constructor(private readonly dataDir: string) {}

  /** Makes (and records) where a new agent works. */
  async create(request: WorkspaceRequest): Promise<AgentWorkspace> {
    const workspace = await createWorkspace(this.dataDir, request);
    writeWorkspace(this.dataDir, request.agentId, workspace);
    return workspace;
  }

  /** Where it works; agents added before worktrees existed work in their folder. */
  of(agentId: string, folder: string): AgentWorkspace {
    return readWorkspace(this.dataDir, agentId) ?? { kind: 'folder', path: folder, repo: null, branch: null, base: null, note: null };
  }

  /** Where its next turn runs: its worktree, made again (same branch) when it was discarded. */
  async forTurn(agentId: string, folder: string): Promise<AgentWorkspace> {
    const workspace = this.of(agentId, folder);
    if (workspace.kind !== 'worktree' || worktreeExists(this.dataDir, agentId)) return workspace;
    const again = await createWorkspace(this.dataDir, { agentId, name: workspace.branch!.replace(/^letagents\//, ''), folder, writes: true, inFolder: false });
    writeWorkspace(this.dataDir, agentId, again);
    return again;
  }

  /** Its changes against the base; refused for an agent working in the folder itself. */
  async changes(agentId: string, folder: string, withDiff: boolean): Promise<AgentChanges> {
    return readChanges(this.worktree(agentId, folder), withDiff);
  }

  /** The turn's activity line about its changes; null outside a worktree or when git fails. */
  async turnSummary(agentId: string, folder: string): Promise<string | null> {
    const workspace = this.of(agentId, folder);
    if (workspace.kind !== 'worktree' || !worktreeExists(this.dataDir, agentId)) return null;
    return readChanges(this.worktree(agentId, folder), false).then(describeChanges, () => null);
  }

  async merge(agentId: string, folder: string, agentName: string): Promise<MergeResult> {
    const outcome = await mergeIntoBase(this.worktree(agentId, folder), agentName);
    return outcome.merged
      ? { merged: true, conflicts: [], reason: null, commit: outcome.commit }
      : { merged: false, conflicts: outcome.conflicts, reason: outcome.reason, commit: null };
  }

  /** Throws away its worktree and branch (the person confirmed); its next turn starts fresh from the base. */
  async discard(agentId: string, folder: string): Promise<void> {
    await removeWorktree(this.worktree(agentId, folder));
  }

  /**
   * Before the agent goes: its worktree goes too when nothing in it would be lost or the
   * person confirmed; otherwise nothing is removed and the error says what is there.
   */
  async checkRemovable(agentId: string, folder: string, confirmed: boolean): Promise<void> {
    const workspace = this.of(agentId, folder);
    if (confirmed || workspace.kind !== 'worktree' || !worktreeExists(this.dataDir, agentId)) return;
    const unsaved = await unsavedWork(this.worktree(agentId, folder));
    if (unsaved) {
      throw appErrors.invalidInput(
        `Its worktree holds work that is not in ${workspace.base}: ${unsaved}. Merge it, or confirm that it may be thrown away, and remove the agent again.`,
      );
    }
  }

  /** After the agent went: its worktree and branch go (checked or confirmed before). */
  async forget(agentId: string, folder: string): Promise<void> {
    const workspace = this.of(agentId, folder);
    if (workspace.kind === 'worktree' && worktreeExists(this.dataDir, agentId)) await removeWorktree(this.worktree(agentId, folder));
  }

  private worktree(agentId: string, folder: string): Worktree {
    const workspace = this.of(agentId, folder);
    if (workspace.kind !== 'worktree' || !workspace.repo || !workspace.branch || !workspace.base) {
      throw appErrors.invalidInput(`This agent works in the folder itself, not in a worktree of its own: ${workspace.note ?? ''}`.trim());
    }
    if (!worktreeExists(this.dataDir, agentId)) throw appErrors.invalidInput(`Its worktree is gone (discarded); its next turn makes a new one from ${workspace.base}.`);
    return { root: worktreeRoot(this.dataDir, agentId), repo: workspace.repo, branch: workspace.branch, base: workspace.base };
  }
}
