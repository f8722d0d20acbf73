// An automation's runs, one at a time: a run for a managed agent is a turn asked of it (its
// retries after a rate limit or a usage limit's reset are more turns of the same run, up to its
// turn budget; the turn that crosses its token budget finishes and no more start), at most at
// the permission level the automation allows, in a fresh worktree when it asks for one. A run
// for a mention posts the mention in the room as the person. A run that cannot start is
// recorded with why; a failed one is a "Needs you" item, closed by the next run that works.
import type { AutomationTarget, RunLimits } from '../../shared/model/automations';
import type { AutomationTrigger, AutomationTurnHooks, AutomationTurnPlan } from '../agents/automationTurns';
import type { Clock } from '../agents/clock';
import type { ManagedAgents } from '../agents/managedAgents';
import { timeText } from '../agents/timeText';
import { waitsForRun } from '../agents/waitingTriggers';
import type { TurnOutcome } from '../agents/turnRunner';
import type { PersonActor } from '../domain/actor';
import { workerSessionId } from '../domain/identity/agentKeys';
import { closeAlert, openAlerts, raiseAlert } from '../domain/knowledge/alerts';
import { latestNumber } from '../domain/messages/read';
import { sendMessage } from '../domain/messages/send';
import {
  getRunRow, insertRunRow, linkRunTurn, openRunRow, runTurnNumbers, updateRunRow, type AutomationRow, type RunCauseRow, type RunRow,
} from '../store/automationQueries';
import { getManagedAgentRow, getTurnRow, type ManagedAgentRow } from '../store/managedAgentQueries';
import { lastMessageOfSession } from '../store/messageQueries';
import { LOCAL_PLACE, type Places } from '../store/places';
import type { Storage, Tx } from '../store/port';

export interface RunsOptions {
  /** This computer's storage: automations and their runs live here. */
  readonly store: Storage;
  readonly places: Places;
  readonly agents: ManagedAgents;
  readonly clock: Clock;
  /** The person in a place: who a mention run posts as. */
  person(place: string): Promise<PersonActor>;
  /** The automation as stored now (its run reads its limits when its turn starts). */
  automation(automationId: string): AutomationRow | undefined;
}

export interface RunStart {
  readonly cause: RunCauseRow;
  /** What started it, in plain words: it goes into the agent's prompt too. */
  readonly causeText: string;
  /** The scheduled time it stands for (schedules). */
  readonly dueAt?: number | null;
}

export const parseTarget = (row: AutomationRow): AutomationTarget =>
  row.target_kind === 'agent' ? { kind: 'agent', agentId: row.agent_id ?? '' } : { kind: 'mention', handle: row.mention ?? '' };

export function parseLimits(row: AutomationRow): RunLimits {
  return JSON.parse(row.limits_json) as RunLimits;
}

export class AutomationRuns implements AutomationTurnHooks {
  constructor(private readonly options: RunsOptions) {}

  private iso(ms = this.options.clock.now()): string {
    return new Date(ms).toISOString();
  }

  /** Starts a run now, or records why it cannot start (its previous one still going, its agent taking no turns). */
  async start(row: AutomationRow, start: RunStart): Promise<void> {
    const { store } = this.options;
    const dueAt = start.dueAt == null ? null : this.iso(start.dueAt);
    const open = await store.read((q) => openRunRow(q, row.automation_id));
    if (open) {
      await this.record(row, start, dueAt, 'skipped', `its previous run (#${open.number}, started ${timeText(Date.parse(open.started_at), this.options.clock.now())}) is still going`);
      return;
    }
    if (row.target_kind === 'mention') return this.mention(row, start, dueAt);
    const agentId = row.agent_id ?? '';
    const from = await store.read((q) => latestNumber(q, row.room_id));
    const run = await store.write(async (tx) => {
      const n = await insertRunRow(tx, row.automation_id, {
        cause: start.cause, cause_text: start.causeText, status: 'running', reason: null, missed: 0, due_at: dueAt, agent_id: agentId, from_number: from, started_at: this.iso(), ended_at: null,
      });
      emitChanged(tx, row.automation_id);
      return n;
    });
    const trigger: AutomationTrigger = { kind: 'automation', automationId: row.automation_id, run, name: row.name, cause: start.causeText, instructions: row.instructions };
    const refused = await this.options.agents.startAutomationTurn(agentId, trigger).catch((error: unknown) => `it could not start: ${(error as Error).message}`);
    if (refused) await this.finish(row.automation_id, run, 'skipped', refused);
  }

  /** A run that does not start: a skip (with why) or a record of missed runs. */
  async record(row: AutomationRow, start: RunStart, dueAt: string | null, status: 'skipped' | 'missed', reason: string, missed = 0): Promise<void> {
    const now = this.iso();
    await this.options.store.write(async (tx) => {
      await insertRunRow(tx, row.automation_id, {
        cause: start.cause, cause_text: start.causeText, status, reason, missed, due_at: dueAt, agent_id: row.agent_id, from_number: null, started_at: now, ended_at: now,
      });
      emitChanged(tx, row.automation_id);
    });
  }

  /** A mention run: "@Reviewer <instructions>" posted as the person; its reply is the post itself. */
  private async mention(row: AutomationRow, start: RunStart, dueAt: string | null): Promise<void> {
    const text = `@${row.mention} ${row.instructions}\n\n(Automation "${row.name}": ${start.causeText}.)`;
    let number: number | null = null;
    let problem: string | null = null;
    try {
      const author = await this.options.person(row.place);
      number = await (await this.options.places.get(row.place)).write((tx) => sendMessage(tx, { roomId: row.room_id, author, text }));
    } catch (error) {
      problem = `the mention could not be posted: ${(error as Error).message}`;
    }
    const now = this.iso();
    const run = await this.options.store.write(async (tx) => {
      const n = await insertRunRow(tx, row.automation_id, {
        cause: start.cause, cause_text: start.causeText, status: problem ? 'failed' : 'done', reason: problem, missed: 0, due_at: dueAt, agent_id: null, from_number: null, started_at: now, ended_at: now,
      });
      if (number !== null) await updateRunRow(tx, row.automation_id, n, { reply_number: number });
      emitChanged(tx, row.automation_id);
      return n;
    });
    await this.afterEnd(row, run, problem);
  }

  // ---- AutomationTurnHooks: the managed turns of a run ----

  async prepare(agent: ManagedAgentRow, trigger: AutomationTrigger): Promise<AutomationTurnPlan | { refuse: string }> {
    const { store } = this.options;
    const run = await store.read((q) => getRunRow(q, trigger.automationId, trigger.run));
    const row = this.options.automation(trigger.automationId);
    if (!run || run.status !== 'running' || !row) return { refuse: 'its run is over' };
    const limits = parseLimits(row);
    const turns = await store.read((q) => runTurnNumbers(q, trigger.automationId, trigger.run));
    const stop = async (why: string) => (await this.finish(trigger.automationId, trigger.run, 'stopped', why), { refuse: why });
    if (turns.length >= limits.maxTurns) return stop(`it used its ${limits.maxTurns} turn${limits.maxTurns === 1 ? '' : 's'} per run`);
    if (limits.maxTokens !== null && run.input_tokens + run.output_tokens >= limits.maxTokens) {
      return stop(`it used its ${limits.maxTokens.toLocaleString('en-US')} tokens per run`);
    }
    if (!limits.freshWorktree) return { permissions: limits.permissions, workspace: null, workspaceKey: null };
    return { permissions: limits.permissions, ...(await this.freshWorktree(agent, row, run)) };
  }

  async opened(agentId: string, turn: number, triggers: readonly AutomationTrigger[]): Promise<void> {
    await this.options.store.write(async (tx) => {
      for (const t of triggers) {
        await linkRunTurn(tx, t.automationId, t.run, agentId, turn);
        emitChanged(tx, t.automationId);
      }
    });
  }

  async ended(agentId: string, triggers: readonly AutomationTrigger[], outcome: TurnOutcome, continues: boolean): Promise<void> {
    const { store } = this.options;
    for (const t of triggers) {
      const run = await store.read((q) => getRunRow(q, t.automationId, t.run));
      if (!run || run.status !== 'running') continue;
      await store.write(async (tx) => {
        await updateRunRow(tx, t.automationId, t.run, {
          input_tokens: run.input_tokens + outcome.inputTokens,
          output_tokens: run.output_tokens + outcome.outputTokens,
          cost_usd: outcome.costUsd === null ? run.cost_usd : (run.cost_usd ?? 0) + outcome.costUsd,
        });
        emitChanged(tx, t.automationId);
      });
      if (continues) continue;
      const error = outcome.status === 'done' ? null : ((await store.read((q) => getTurnRow(q, agentId, outcome.turn)))?.error ?? 'its turn failed');
      const status = outcome.status === 'done' ? 'done' : outcome.status === 'stopped' ? 'stopped' : 'failed';
      await this.finish(t.automationId, t.run, status, status === 'stopped' ? `its turn was stopped: ${error}` : error);
    }
  }

  async dropped(_agentId: string, trigger: AutomationTrigger, reason: string): Promise<void> {
    const turns = await this.options.store.read((q) => runTurnNumbers(q, trigger.automationId, trigger.run));
    await this.finish(trigger.automationId, trigger.run, turns.length === 0 ? 'skipped' : 'stopped', reason);
  }

  /** Runs left going by an app that stopped: those whose turn waits for a limit go on, the rest failed. */
  async restore(open: readonly RunRow[]): Promise<void> {
    for (const run of open) {
      const agent = run.agent_id ? await this.options.store.read((q) => getManagedAgentRow(q, run.agent_id!)) : undefined;
      if (!agent || !waitsForRun(agent, run.automation_id, run.number)) await this.finish(run.automation_id, run.number, 'failed', 'the app stopped during this run');
    }
  }

  /** Ends a run that is still going (a second word on one that ended changes nothing). */
  async finish(automationId: string, number: number, status: 'done' | 'failed' | 'stopped' | 'skipped', reason: string | null): Promise<void> {
    const { store } = this.options;
    const run = await store.read((q) => getRunRow(q, automationId, number));
    const row = this.options.automation(automationId);
    if (!run || run.status !== 'running') return;
    const branch = await this.endWorktree(run);
    const reply = run.agent_id && run.from_number !== null ? await this.replyOf(run) : null;
    await store.write(async (tx) => {
      await updateRunRow(tx, automationId, number, { status, reason, ended_at: this.iso(), reply_number: reply, branch, worktree_json: null });
      emitChanged(tx, automationId);
    });
    if (row) await this.afterEnd(row, number, status === 'failed' ? (reason ?? 'it failed') : null);
  }

  /** A failed run is a "Needs you" item of its room (this computer's rooms); one that worked closes the earlier ones. */
  private async afterEnd(row: AutomationRow, run: number, failure: string | null): Promise<void> {
    if (row.place !== LOCAL_PLACE) return;
    const sessionId = row.agent_id ? await this.sessionOf(row.agent_id) : null;
    await this.options.store.write(async (tx) => {
      if (failure === null) {
        for (const alert of await openAlerts(tx, 'automation', row.room_id)) {
          if (alert.subject.startsWith(`${row.automation_id}:`)) await closeAlert(tx, row.room_id, alert.number, 'resolved');
        }
        return;
      }
      const stored = await getRunRow(tx, row.automation_id, run);
      await raiseAlert(tx, {
        roomId: row.room_id,
        kind: 'automation',
        subject: `${row.automation_id}:${run}`,
        sessionId,
        messageNumber: stored?.reply_number ?? null,
        title: `Automation "${row.name}" failed`,
        body: `Its run #${run} (${stored?.cause_text ?? 'a run'}) failed: ${failure}. The Automations page shows its runs; Run now tries again.`,
        detail: { automationId: row.automation_id, run },
      });
    });
  }

  private async sessionOf(agentId: string): Promise<string | null> {
    const agent = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    return agent ? workerSessionId(agent.worker_id, agent.room_id) : null;
  }

  /** The agent's last message of the run in its room. */
  private async replyOf(run: RunRow): Promise<number | null> {
    const sessionId = await this.sessionOf(run.agent_id!);
    const agent = await this.options.store.read((q) => getManagedAgentRow(q, run.agent_id!));
    if (!sessionId || !agent) return null;
    return this.options.store.read((q) => lastMessageOfSession(q, agent.room_id, sessionId, run.from_number!));
  }

  /** The run's fresh worktree, made at its first turn (a worktree of the agent's repository on a branch of its own). */
  private async freshWorktree(agent: ManagedAgentRow, row: AutomationRow, run: RunRow): Promise<Omit<AutomationTurnPlan, 'permissions'>> {
    if (run.worktree_json) return JSON.parse(run.worktree_json) as Omit<AutomationTurnPlan, 'permissions'>;
    const key = `${agent.agent_id}-run-${row.automation_id.slice(-8)}-${run.number}`;
    const name = (await this.options.agents.get(agent.agent_id)).session?.display_name ?? 'agent';
    const workspace = await this.options.agents.runWorkspace(agent, key, `${name}-${slug(row.name)}-${run.number}`);
    const plan = { workspace, workspaceKey: workspace.kind === 'worktree' ? key : null };
    await this.options.store.write((tx) => updateRunRow(tx, row.automation_id, run.number, { worktree_json: JSON.stringify(plan) }));
    return plan;
  }

  /** After a run in a fresh worktree: gone when it holds nothing; else its branch is named on the run. */
  private async endWorktree(run: RunRow): Promise<string | null> {
    if (!run.worktree_json || !run.agent_id) return null;
    const plan = JSON.parse(run.worktree_json) as Omit<AutomationTurnPlan, 'permissions'>;
    const agent = await this.options.store.read((q) => getManagedAgentRow(q, run.agent_id!));
    if (!plan.workspaceKey || !agent || plan.workspace?.kind !== 'worktree') return null;
    const held = await this.options.agents.endRunWorkspace(plan.workspaceKey, agent.folder).catch(() => null);
    return held === null ? null : plan.workspace.branch;
  }
}

function emitChanged(tx: Tx, automationId: string): void {
  tx.emit({ type: 'automation.changed', automationId });
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24) || 'run';
