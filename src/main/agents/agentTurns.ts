// The turn side of managed agents: runs a scheduled turn, says what its outcome means (a
// limit's hold or retry, a CLI that cannot run, a budget used up), and stops, keeps and
// resumes an agent's turns.
import { join } from 'node:path';
import { workerSessionId } from '../domain/identity/agentKeys';
import { getSession } from '../domain/sessions/sessions';
import type { McpServices } from '../mcp/services';
import type { HelperCommand } from '../setup/helperCommand';
import { getManagedAgentRow, type HeldReason, type ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { LOCAL_PLACE } from '../store/places';
import { personLabelIn } from '../auth/personLabel';
import { recordHold } from './agentHolds';
import { approvalWaitIn, noteTakesTurns } from './agentRoom';
import { isAutomation, planAutomationTurn, type AutomationTrigger, type AutomationTurnHooks } from './automationTurns';
import { budgetUse, heldReasonText } from './budgets';
import { cantRunOf, parseCantRun, type CantRun } from './cantRun';
import type { Clock } from './clock';
import { buildTurnPrompt } from './prompt';
import { providerOf } from './providers';
import type { RoomMembers } from './roomMembers';
import { timeText } from './timeText';
import { runTurn, type TurnOutcome } from './turnRunner';
import type { TurnScheduler } from './turnScheduler';
import type { Trigger } from './types';
import type { UsageLimits } from './usageLimits';
import { keepTriggers, takeWaiting } from './waitingTriggers';
import type { AgentWorkspaces } from './workspace/agentWorkspaces';

export interface AgentTurnsOptions {
  readonly store: Storage;
  readonly services: McpServices;
  readonly dataDir: string;
  readonly helper: HelperCommand;
  /** The provider's environment (the person's, with the app's own variables taken out). */
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly reconnectLimitMs?: number;
  readonly clock: Clock;
  readonly scheduler: TurnScheduler;
  readonly room: RoomMembers;
  readonly workspaces: AgentWorkspaces;
  readonly limits: () => UsageLimits;
  /** The automations service's hooks, once it has said them. */
  readonly hooks: () => AutomationTurnHooks | null;
}

export class AgentTurns {
  private readonly pids = new Map<string, number>();

  constructor(private readonly options: AgentTurnsOptions) {}

  /** The provider process of the agent's running turn. */
  runningPid(agentId: string): number | null {
    return this.pids.get(agentId) ?? null;
  }

  /** Where the agent's own files live (its CLI session, its settings for the CLI). */
  agentDir(agentId: string): string {
    return join(this.options.dataDir, 'managed-agents', agentId);
  }

  /** Why the agent takes no turns now, in words that follow its name ("Juniper is paused"); null when it takes them. */
  async noTurnsReason(row: ManagedAgentRow): Promise<string | null> {
    const cantRun = parseCantRun(row.cant_run_json);
    const why = cantRun
      ? `can't run: ${cantRun.reason}`
      : row.limit_until !== null
        ? `waits for ${providerOf(row.provider).name}'s usage limit to reset (after ${timeText(Date.parse(row.limit_until), this.options.clock.now())})`
        : row.held_reason !== null
          ? `takes no turns: ${heldReasonText(row, row.held_reason)}`
          : row.desired_state === 'paused'
            ? 'is paused'
            : null;
    if (why === null) return null;
    const session = await this.options.store.read((q) => getSession(q, workerSessionId(row.worker_id, row.room_id)));
    return `${session?.display_name ?? 'Its agent'} ${why}`;
  }

  /** No turns until Resume: what was queued for it is kept (automations' runs end, saying `dropReason`, when given). */
  async stopTurns(agentId: string, dropReason?: string): Promise<void> {
    this.options.room.takesNoTurns(agentId);
    await this.keep(agentId, this.options.scheduler.forget(agentId), dropReason);
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (row) await noteTakesTurns(this.options.services, row, false);
  }

  /**
   * Keeps triggers for its next turn. An automation's run does not wait for a Resume: with a
   * `dropReason` its trigger goes and the run ends saying why (a limit's hold keeps it).
   */
  async keep(agentId: string, triggers: readonly Trigger[], dropReason?: string): Promise<void> {
    const dropped = dropReason === undefined ? [] : triggers.filter(isAutomation);
    for (const trigger of dropped) await this.options.hooks()?.dropped(agentId, trigger, dropReason!).catch(logFailure(agentId, 'end an automation run'));
    const kept = triggers.filter((t) => !dropped.includes(t as AutomationTrigger));
    await keepTriggers(this.options.store, agentId, kept).catch(logFailure(agentId, 'keep its triggers'));
  }

  /**
   * Takes turns again (a limit passed, or the person's Resume): what waited is its next turn.
   * The two differ only when its room's place cannot be read now. Then a known member keeps
   * what is known of it with its new state, and both queue what waited (the turn re-checks
   * its room when it starts). One never read since the app started is no member: a limit
   * that passed queues nothing (what waited stays kept until its room can be read), while
   * the person's Resume (`byPerson`) queues it anyway, and the turn, finding the room
   * unreadable, keeps the triggers again for the next one.
   */
  async resumeTurns(agentId: string, byPerson = false): Promise<void> {
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) return;
    // Its worker lives in its room's place (a team offline: what is known of it stays).
    this.options.room.track(row, (await this.options.room.roomSide(row).catch(() => null))?.worker);
    if (!byPerson && !this.options.room.members.get(agentId)?.takesTurns) return;
    for (const trigger of await takeWaiting(this.options.store, agentId)) this.options.scheduler.request(agentId, trigger);
  }

  /** One scheduled turn: re-checked (paused, removed, budget) at the moment it starts. */
  async run(agentId: string, queued: Trigger[], signal: AbortSignal): Promise<void> {
    const { store, room, workspaces } = this.options;
    const row = await store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) return;
    // Paused, held or unable to run since it was queued: the triggers wait for its next turn.
    if (row.held_reason !== null || row.cant_run_json !== null || row.limit_until !== null || (row.desired_state === 'paused' && !queued.some((t) => t.kind === 'run_now'))) {
      // A usage limit's hold resumes by itself: an automation's run waits for it too.
      return this.keep(agentId, queued, row.limit_until !== null ? undefined : ((await this.noTurnsReason(row)) ?? undefined));
    }
    const budget = await store.read((q) => budgetUse(q, row, new Date()));
    if (budget.reached) {
      await this.keep(agentId, queued, `its agent ${heldReasonText(row, budget.reached)}`);
      return this.hold(row, budget.reached);
    }
    // Its room's place may be offline (a team): the triggers wait for its next turn.
    const side = await room.roomSide(row).catch((error: unknown) => {
      console.warn(`managed agent ${agentId}: its room (${row.place}) cannot be read; the turn waits:`, error);
      return null;
    });
    if (!side) return this.keep(agentId, queued);
    const { worker, session, room: roomRow } = side;
    if (!worker || !roomRow) return;
    const hooks = this.options.hooks();
    const plan = await planAutomationTurn(hooks, row, queued);
    const triggers = plan.triggers;
    if (triggers.length === 0) return;
    const automations = triggers.filter(isAutomation);
    const workspace = plan.workspace ?? (await workspaces.forTurn(agentId, row.folder));
    const prompt = buildTurnPrompt({
      workspace,
      name: session?.display_name ?? worker.display_name,
      workerId: worker.worker_id,
      roomId: row.room_id,
      roomName: roomRow.display_name,
      instructions: row.instructions,
      triggers,
    });
    const roomStore = await room.roomStore(row);
    const { auth } = this.options.services;
    const deps = {
      store,
      roomStore,
      // The owner as the team knows them (their name in its rooms).
      showApprovalWait: row.place === LOCAL_PLACE ? undefined : approvalWaitIn(roomStore, row, async () => (auth ? personLabelIn(auth, row.place) : 'its owner')),
      env: this.options.env,
      home: this.options.home,
      dataDir: this.options.dataDir,
      approvals: this.options.services.approvals,
      helper: this.options.helper,
      agentDir: (id: string) => this.agentDir(id),
      onProcess: (id: string, pid: number | null) => (pid === null ? this.pids.delete(id) : this.pids.set(id, pid)),
      changesOfTurn: () => workspaces.turnSummary(plan.workspaceKey ?? agentId, row.folder),
      onOpened: async (turn: number) => {
        if (automations.length > 0) await this.options.hooks()?.opened(agentId, turn, automations);
      },
      reconnectLimitMs: this.options.reconnectLimitMs,
    };
    // The turn's prompt hands it the triggering messages: they are delivered to it now.
    const sessionId = workerSessionId(row.worker_id, row.room_id);
    for (const t of triggers) {
      if (t.kind === 'message') this.options.services.delivery.deliveries.record({ place: row.place, roomId: t.roomId }, sessionId, t.number, t.number);
    }
    // The turn runs where the agent works (its worktree, the folder itself, or a run's fresh worktree), at most as its automations allow.
    const agent = { ...row, folder: workspace.path, permissions: plan.permissions };
    const outcome = await runTurn(deps, { agent, prompt, triggers, name: session?.display_name ?? worker.display_name }, signal);
    await this.afterTurn(row, triggers, outcome);
  }

  /** What a turn's outcome means: a limit's hold or retry, a CLI that cannot run; automations hear how it ended. */
  private async afterTurn(row: ManagedAgentRow, triggers: Trigger[], outcome: TurnOutcome): Promise<void> {
    const limits = this.options.limits();
    const { limit } = outcome;
    const hold = limit?.kind === 'usage_limit' && limits.believable(limit.resetsAt) ? limit.resetsAt : null;
    const retry = limit?.kind === 'rate_limited' && limits.canRetry(row.agent_id);
    const automations = triggers.filter(isAutomation);
    if (automations.length > 0) await this.options.hooks()?.ended(row.agent_id, automations, outcome, hold !== null || retry).catch(logFailure(row.agent_id, 'record an automation run'));
    if (outcome.cantRun) return this.cannotRun(row, outcome.cantRun, triggers);
    if (hold !== null) return limits.hold(row, outcome.turn, triggers, hold);
    if (limit?.kind === 'usage_limit') {
      // A reset time in the past or too far off: only the person can tell when to try again.
      const provider = providerOf(row.provider);
      return this.cannotRun(row, cantRunOf(provider, 'quota', { command: null, model: row.model, detail: `${provider.name} said its usage limit resets at ${limit.resetsAt}.` }), triggers);
    }
    if (limit?.kind === 'rate_limited') {
      await limits.retry(row, outcome.turn, triggers);
      return;
    }
    if (outcome.status === 'done') limits.succeeded(row.agent_id);
  }

  /**
   * Its CLI cannot run for a reason only the person can fix: no turns until Resume (which
   * tries again with what activated it meanwhile, this turn's triggers first), one "Needs
   * you" item with the fix, and the card and `agent list` say "Can't run: …".
   */
  private async cannotRun(row: ManagedAgentRow, cantRun: CantRun, triggers: readonly Trigger[]): Promise<void> {
    const why = `its agent can't run: ${cantRun.reason}`;
    await this.stopTurns(row.agent_id, why);
    await this.keep(row.agent_id, triggers, why);
    await recordHold(this.options.store, await this.options.room.roomStore(row), row, { cantRun });
  }

  /** A budget is used up: no turns until the person resumes it, and a "Needs you" item says so. */
  private async hold(row: ManagedAgentRow, reason: HeldReason): Promise<void> {
    await this.stopTurns(row.agent_id, `its agent ${heldReasonText(row, reason)}`);
    await recordHold(this.options.store, await this.options.room.roomStore(row), row, { budget: reason });
  }
}

const logFailure = (agentId: string, what: string) => (error: unknown) => console.error(`managed agent ${agentId}: could not ${what}:`, error);
