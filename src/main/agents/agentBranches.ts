// What the person does with a managed agent's branch: see its changes, merge it, update it
// from its base, ask the agent to redo it on top of its base, or throw it away; and the fresh
// worktrees automation runs work in.
import type { AgentChanges, AgentWorkspace, MergeResult, RedoRequest, UpdateResult } from '../../shared/model/managedAgents';
import type { PersonActor } from '../domain/actor';
import { appErrors } from '../domain/errors';
import { mentionOf } from '../domain/messages/mentions';
import { sendMessage } from '../domain/messages/send';
import { postSystemEvent } from '../domain/systemEvents';
import type { ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { nameOf, type ManagedAgentRecord } from './agentRecord';
import type { TurnScheduler } from './turnScheduler';
import type { AgentWorkspaces } from './workspace/agentWorkspaces';

export interface AgentBranchesOptions {
  readonly store: Storage;
  readonly scheduler: TurnScheduler;
  readonly workspaces: AgentWorkspaces;
  get(agentId: string): Promise<ManagedAgentRecord>;
  requireRow(agentId: string): Promise<ManagedAgentRow>;
}

export class AgentBranches {
  constructor(private readonly options: AgentBranchesOptions) {}

  /** What it changed on its branch against its base (the Changes view; `withDiff`: the diff too). */
  async changes(agentId: string, withDiff: boolean): Promise<AgentChanges> {
    const row = await this.options.requireRow(agentId);
    return this.options.workspaces.changes(agentId, row.folder, withDiff);
  }

  /** Merges its branch into its base; refused (nothing changed) while it takes a turn or on conflicts. */
  async merge(agentId: string, person: PersonActor): Promise<MergeResult> {
    const { workspaces } = this.options;
    const record = await this.options.get(agentId);
    this.refuseInTurn(agentId, 'merge when the turn has ended (or stop it).');
    const name = nameOf(record);
    const result = await workspaces.merge(agentId, record.row.folder, name, person.label);
    if (result.merged) {
      // The room hears that the work landed (issue 35); it wakes no one.
      const { branch, base } = workspaces.of(agentId, record.row.folder);
      await this.options.store.write(async (tx) => {
        await postSystemEvent(tx, record.row.room_id, `${person.label} merged ${name}'s branch ${branch} into ${base}${result.commit ? ` (${result.commit.slice(0, 7)})` : ''}.`, person);
      });
    }
    return result;
  }

  /** Update from main (after a refused merge): its base merged into its branch in its worktree, as the person; refused on conflicts. */
  async updateFromBase(agentId: string, person: PersonActor): Promise<UpdateResult> {
    const record = await this.options.get(agentId);
    this.refuseInTurn(agentId, 'update it when the turn has ended (or stop it).');
    const outcome = await this.options.workspaces.update(agentId, record.row.folder, nameOf(record), person.label, false);
    await this.changed(agentId);
    return outcome.updated ? { updated: true, conflicts: [], reason: null, commit: outcome.commit } : { updated: false, conflicts: outcome.conflicts, reason: outcome.reason, commit: null };
  }

  /**
   * "Ask <agent> to redo it on top of main": its base is merged into its branch with the
   * conflicts left in its worktree, and the person's message in its room asks it to resolve
   * them (the mention starts its turn). Merging cleanly now, it is just updated.
   */
  async askToRedo(agentId: string, person: PersonActor): Promise<RedoRequest> {
    const { workspaces } = this.options;
    const record = await this.options.get(agentId);
    this.refuseInTurn(agentId, 'ask it when the turn has ended (or stop it).');
    const name = nameOf(record);
    const outcome = await workspaces.update(agentId, record.row.folder, name, person.label, true);
    const { branch, base } = workspaces.of(agentId, record.row.folder);
    if (outcome.updated) {
      await this.changed(agentId);
      return { asked: false, conflicts: [], message: `${branch} merges cleanly with ${base} now: it was updated from ${base}, nothing to redo.` };
    }
    if (!outcome.started) return { asked: false, conflicts: outcome.conflicts, message: outcome.reason };
    const files = outcome.conflicts.join(', ');
    const text =
      `${mentionOf(name)} ${base} has moved on since your branch ${branch} left it, and your changes to ${files} conflict with it. ` +
      `Your worktree now has ${base} merged in, with conflict markers in ${files}: redo your change on top of ${base}'s version there, ` +
      'keeping what both sides meant, remove the markers, and say here when it is done.';
    await this.options.store.write(async (tx) => {
      await sendMessage(tx, { roomId: record.row.room_id, author: person, text });
      tx.emit({ type: 'agent.changed', agentId });
    });
    return { asked: true, conflicts: outcome.conflicts, message: `Asked ${name} in its room to redo it on top of ${base}: ${files} wait there with their conflicts marked.` };
  }

  /** Throws its worktree and branch away (the person confirmed); its next turn starts again from the base. */
  async discard(agentId: string): Promise<AgentWorkspace> {
    const row = await this.options.requireRow(agentId);
    this.refuseInTurn(agentId, 'stop it before discarding its changes.');
    await this.options.workspaces.discard(agentId, row.folder);
    await this.changed(agentId);
    return this.options.workspaces.of(agentId, row.folder);
  }

  /** A fresh worktree of the agent's repository for one automation run (`key` names it), or where it works when it gets none. */
  runWorkspace(row: ManagedAgentRow, key: string, name: string): Promise<AgentWorkspace> {
    return this.options.workspaces.create({ agentId: key, name, folder: row.folder, writes: row.permissions !== 'read_only', inFolder: false });
  }

  /** After a run in a fresh worktree: removed with its branch when it holds nothing; otherwise kept, and what it holds is said. */
  async endRunWorkspace(key: string, folder: string): Promise<string | null> {
    const { workspaces } = this.options;
    const held = await workspaces.checkRemovable(key, folder, false).then(() => null, (error: unknown) => (error as Error).message);
    if (held === null) await workspaces.forget(key, folder).catch(() => undefined);
    return held === null ? null : ((await workspaces.turnSummary(key, folder)) ?? held);
  }

  /** Its worktree is the running turn's: git work on it waits until the turn has ended. */
  private refuseInTurn(agentId: string, then: string): void {
    if (this.options.scheduler.state(agentId) === 'running') throw appErrors.invalidInput(`It is taking a turn now; ${then}`);
  }

  /** The card shows its branch's new state. */
  private async changed(agentId: string): Promise<void> {
    await this.options.store.write(async (tx) => tx.emit({ type: 'agent.changed', agentId }));
  }
}
