// How managed turns and automations (automations/, above this folder) meet: an automation's
// trigger asks its run how the turn runs (at most which permission level, in which workspace)
// and hears when the turn opened, ended, or will not happen.
import { PERMISSION_ORDER, type AgentPermissions, type AgentWorkspace } from '../../shared/model/managedAgents';
import type { ManagedAgentRow } from '../store/managedAgentQueries';
import type { TurnOutcome } from './turnRunner';
import type { Trigger } from './types';

export type AutomationTrigger = Extract<Trigger, { kind: 'automation' }>;

/** How an automation's turn runs: at most this permission level, and in this workspace (a fresh worktree named `workspaceKey`) instead of the agent's own. */
export interface AutomationTurnPlan {
  readonly permissions: AgentPermissions | null;
  readonly workspace: AgentWorkspace | null;
  readonly workspaceKey: string | null;
}

/** What the automations service (above this folder) says about the turns it asks for. */
export interface AutomationTurnHooks {
  /** Before a turn with the trigger: how it runs, or why it does not (its run is over: the trigger goes). */
  prepare(row: ManagedAgentRow, trigger: AutomationTrigger): Promise<AutomationTurnPlan | { refuse: string }>;
  /** The turn opened (its number in the agent's activity). */
  opened(agentId: string, turn: number, triggers: readonly AutomationTrigger[]): Promise<void>;
  /** The turn ended; `continues`: its triggers come back in a later turn (after a limit's reset or backoff). */
  ended(agentId: string, triggers: readonly AutomationTrigger[], outcome: TurnOutcome, continues: boolean): Promise<void>;
  /** The agent takes no turns now (paused, held, can't run, removed): the run ends, saying why. */
  dropped(agentId: string, trigger: AutomationTrigger, reason: string): Promise<void>;
}

export const isAutomation = (t: Trigger): t is AutomationTrigger => t.kind === 'automation';

export interface TurnPlan {
  readonly triggers: Trigger[];
  readonly permissions: AgentPermissions;
  /** Where the turn runs instead of the agent's own workspace (a run's fresh worktree), with its key. */
  readonly workspace: AgentWorkspace | null;
  readonly workspaceKey: string | null;
}

/**
 * The automations among a turn's triggers: each asks its run how the turn runs (a trigger
 * whose run is over goes); the turn gets the lowest permission level any of them allows.
 */
export async function planAutomationTurn(hooks: AutomationTurnHooks | null, row: ManagedAgentRow, queued: readonly Trigger[]): Promise<TurnPlan> {
  const triggers: Trigger[] = [];
  let permissions = row.permissions;
  let workspace: AgentWorkspace | null = null;
  let workspaceKey: string | null = null;
  for (const trigger of queued) {
    if (!isAutomation(trigger) || !hooks) {
      triggers.push(trigger);
      continue;
    }
    const plan = await hooks.prepare(row, trigger).catch((error: unknown) => ({ refuse: `it could not start: ${(error as Error).message}` }));
    if ('refuse' in plan) continue;
    triggers.push(trigger);
    if (plan.permissions && PERMISSION_ORDER.indexOf(plan.permissions) < PERMISSION_ORDER.indexOf(permissions)) permissions = plan.permissions;
    if (!workspace && plan.workspace) {
      workspace = plan.workspace;
      workspaceKey = plan.workspaceKey;
    }
  }
  return { triggers, permissions, workspace, workspaceKey };
}
