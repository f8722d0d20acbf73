// The managed-agents service: adds agents (registering each one's durable worker in its
// room before its first turn), keeps the state a person asked for (running, paused; it
// survives a restart), gives agents turns when triggers fire, holds them when a budget is
// used up or its CLI cannot run for a reason the person must fix (and asks the person in
// "Needs you", through the same raising code as the app's other delivery items), keeps what
// activates an agent that takes no turns for its next one, and stops, resumes and removes them.
// A message handed to a turn is delivered to the agent when the turn starts (receipts).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AddAgentInput, AgentChanges, AgentWorkspace, MergeResult, ProviderInfo, RedoRequest, UpdateResult } from '../../shared/model/managedAgents';
import type { PersonActor } from '../domain/actor';
import { appErrors } from '../domain/errors';
import { workerSessionId } from '../domain/identity/agentKeys';
import { gitCurrentBranch } from '../domain/git';
import { closeAlert, openAlerts } from '../domain/knowledge/alerts';
import { dismissRequest } from '../domain/knowledge/requests';
import { mentionOf } from '../domain/messages/mentions';
import { latestNumber } from '../domain/messages/read';
import { sendMessage } from '../domain/messages/send';
import { getRoom } from '../domain/rooms/rooms';
import { getSession, insertWorkerSession, type SessionRow } from '../domain/sessions/sessions';
import { findOrCreateWorker, getWorker, type WorkerRow } from '../domain/sessions/workers';
import { postSystemEvent } from '../domain/systemEvents';
import type { EventBus } from '../events/bus';
import type { McpServices } from '../mcp/services';
import type { HelperCommand } from '../setup/helperCommand';
import { getRequestRow } from '../store/knowledgeQueries';
import {
  countRunningTurns, deleteManagedAgentRow, failInterruptedTurns, getManagedAgentRow, insertManagedAgentRow, listManagedAgentRows,
  listTurnRows, updateManagedAgentState, type HeldReason, type ManagedAgentRow, type TurnRow,
} from '../store/managedAgentQueries';
import type { Storage, Tx } from '../store/port';
import { childEnv } from '../childEnv';
import { checkAgentConfig } from './agentConfig';
import { watchClaims } from './branchArtifacts';
import { budgetUse, heldReasonText, type BudgetUse } from './budgets';
import { recordHold } from './agentHolds';
import { parseCantRun, type CantRun } from './cantRun';
import { buildTurnPrompt } from './prompt';
import { locateProvider, PROVIDER_LIST, providerOf } from './providers';
import { watchTriggers, type MemberAgent } from './triggers';
import { signInWarning } from './signInCheck';
import { runTurn } from './turnRunner';
import { TurnScheduler } from './turnScheduler';
import type { Trigger } from './types';
import { AgentWorkspaces } from './workspace/agentWorkspaces';
import { keepTriggers, takeWaiting } from './waitingTriggers';

export interface ManagedAgentsOptions {
  readonly store: Storage;
  readonly bus: EventBus;
  /** The MCP layer's services: routing reads presence and owner identity from them. */
  readonly services: McpServices;
  /** Ends an agent's session as a person (remove from room). */
  endSessionByPerson(sessionId: string, mode: 'remove', person: PersonActor): Promise<void>;
  readonly dataDir: string;
  readonly helper: HelperCommand;
  /** The person's environment (the provider runs with their login). */
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly maxConcurrentTurns?: number;
  readonly turnTimeLimitMs?: number;
  /** How long a turn's CLI may only reconnect before the turn is ended (turnRunner's default: 60 s). */
  readonly reconnectLimitMs?: number;
}

/** A managed agent with what the UI and CLI show about it. */
export interface ManagedAgentRecord {
  readonly row: ManagedAgentRow;
  readonly worker: WorkerRow | undefined;
  readonly session: SessionRow | undefined;
  readonly roomName: string;
  readonly turnState: 'idle' | 'queued' | 'running';
  readonly budget: BudgetUse;
  readonly lastTurn: TurnRow | undefined;
  readonly workspace: AgentWorkspace;
}

export class ManagedAgents {
  private readonly scheduler: TurnScheduler;
  /** Every managed agent with a worker, by id; `takesTurns`: running, not held, able to run. */
  private readonly members = new Map<string, MemberAgent & { roomId: string }>();
  private readonly ownEvents = new Set<string>();
  private readonly pids = new Map<string, number>();
  private readonly env: NodeJS.ProcessEnv;
  private readonly workspaces: AgentWorkspaces;
  private readonly stopWatching: () => void;
  readonly ready: Promise<void>;

  constructor(private readonly options: ManagedAgentsOptions) {
    this.env = childEnv(options.env);
    this.workspaces = new AgentWorkspaces(options.dataDir);
    this.scheduler = new TurnScheduler({
      maxConcurrent: options.maxConcurrentTurns,
      turnTimeLimitMs: options.turnTimeLimitMs,
      runTurn: (agentId, triggers, signal) => this.turn(agentId, triggers, signal),
      onStateChange: (agentId) => options.bus.publish({ type: 'agent.changed', agentId }),
    });
    const stopTriggers = watchTriggers(options.bus, options.store, options.services, {
      agentsIn: async (roomId) => [...this.members.values()].filter((a) => a.roomId === roomId),
      request: (agentId, trigger) => this.scheduler.request(agentId, trigger),
      keep: (agentId, trigger) => void this.keep(agentId, [trigger]),
      isInTurn: (agentId) => this.scheduler.state(agentId) === 'running',
      takeOwnEvent: (roomId, number) => this.ownEvents.delete(`${roomId}\n${number}`),
      roomDeleted: () => void this.forgetVanished(),
    });
    const stopClaims = watchClaims(options.bus, options.store, (roomId, agentKey) => this.branchOf(roomId, agentKey));
    this.stopWatching = () => {
      stopTriggers();
      stopClaims();
    };
    // A start-up that cannot read or write the store leaves managed agents idle, never the app down.
    this.ready = this.load().catch((error: unknown) => console.error('managed agents: could not load:', error));
  }

  /** The CLIs the app can run: whether each is installed (where), and whether it is signed in. */
  async providers(): Promise<ProviderInfo[]> {
    return Promise.all(
      PROVIDER_LIST.map(async (p) => {
        const path = await locateProvider(p, this.env);
        const warning = path ? await signInWarning(p, path, this.env, this.options.home) : null;
        return {
          id: p.id, name: p.name, installed: path !== null, installHint: p.installHint, path, warning,
          permissions: [...p.permissions], permissionsNote: p.permissionsNote ?? null,
        };
      }),
    );
  }

  async list(): Promise<ManagedAgentRecord[]> {
    await this.ready;
    const rows = await this.options.store.read((q) => listManagedAgentRows(q));
    return Promise.all(rows.map((row) => this.recordOf(row)));
  }

  async get(agentId: string): Promise<ManagedAgentRecord> {
    return this.recordOf(await this.requireRow(agentId));
  }

  async add(input: AddAgentInput): Promise<ManagedAgentRecord> {
    await this.ready;
    const config = await checkAgentConfig(this.options.store, this.env, input);
    const repoBranch = await gitCurrentBranch(config.folder).catch(() => null);
    const owner = await this.options.services.owner();
    const agentId = `agent_${randomBytes(16).toString('hex')}`;
    await this.options.store.write(async (tx) => {
      const { worker } = await findOrCreateWorker(tx, {
        // The app registers the worker itself; the key is never needed again (the app keeps the worker_id).
        registrationKey: randomBytes(32).toString('base64url'),
        requestedName: config.name,
        ownerLabel: owner.ownerLabel,
        ownerSlug: owner.ownerSlug,
        ideLabel: providerOf(config.provider).name,
      });
      await insertWorkerSession(tx, { worker, roomId: config.roomId, repoBranch });
      await this.markOwnEvent(tx, config.roomId);
      await insertManagedAgentRow(tx, {
        agent_id: agentId,
        worker_id: worker.worker_id,
        room_id: config.roomId,
        provider: config.provider,
        folder: config.folder,
        instructions: config.instructions,
        model: config.model,
        permissions: config.permissions,
        turns_per_hour: config.turnsPerHour,
        daily_token_cap: config.dailyTokenCap,
      });
      tx.emit({ type: 'agent.changed', agentId });
    });
    await this.workspaces.create({ agentId, name: config.name, folder: config.folder, writes: config.permissions !== 'read_only', inFolder: input.workInFolder === true });
    const record = await this.get(agentId);
    this.track(record.row, record.worker);
    return record;
  }

  /** What it changed on its branch against its base (the Changes view; `withDiff`: the diff too). */
  async changes(agentId: string, withDiff: boolean): Promise<AgentChanges> {
    const row = await this.requireRow(agentId);
    return this.workspaces.changes(agentId, row.folder, withDiff);
  }

  /** Merges its branch into its base; refused (nothing changed) while it takes a turn or on conflicts. */
  async merge(agentId: string, person: PersonActor): Promise<MergeResult> {
    const record = await this.get(agentId);
    if (this.scheduler.state(agentId) === 'running') throw appErrors.invalidInput('It is taking a turn now; merge when the turn has ended (or stop it).');
    const name = this.nameOf(record);
    const result = await this.workspaces.merge(agentId, record.row.folder, name, person.label);
    if (result.merged) {
      // The room hears that the work landed (issue 35); it wakes no one.
      const { branch, base } = this.workspaces.of(agentId, record.row.folder);
      await this.options.store.write(async (tx) => {
        await postSystemEvent(tx, record.row.room_id, `${person.label} merged ${name}'s branch ${branch} into ${base}${result.commit ? ` (${result.commit.slice(0, 7)})` : ''}.`, person);
      });
    }
    return result;
  }

  /** Update from main (after a refused merge): its base merged into its branch in its worktree, as the person; refused on conflicts. */
  async updateFromBase(agentId: string, person: PersonActor): Promise<UpdateResult> {
    const record = await this.get(agentId);
    if (this.scheduler.state(agentId) === 'running') throw appErrors.invalidInput('It is taking a turn now; update it when the turn has ended (or stop it).');
    const outcome = await this.workspaces.update(agentId, record.row.folder, this.nameOf(record), person.label, false);
    await this.options.store.write(async (tx) => tx.emit({ type: 'agent.changed', agentId }));
    return outcome.updated ? { updated: true, conflicts: [], reason: null, commit: outcome.commit } : { updated: false, conflicts: outcome.conflicts, reason: outcome.reason, commit: null };
  }

  /**
   * "Ask <agent> to redo it on top of main": its base is merged into its branch with the
   * conflicts left in its worktree, and the person's message in its room asks it to resolve
   * them (the mention starts its turn). Merging cleanly now, it is just updated.
   */
  async askToRedo(agentId: string, person: PersonActor): Promise<RedoRequest> {
    const record = await this.get(agentId);
    if (this.scheduler.state(agentId) === 'running') throw appErrors.invalidInput('It is taking a turn now; ask it when the turn has ended (or stop it).');
    const name = this.nameOf(record);
    const outcome = await this.workspaces.update(agentId, record.row.folder, name, person.label, true);
    const { branch, base } = this.workspaces.of(agentId, record.row.folder);
    if (outcome.updated) {
      await this.options.store.write(async (tx) => tx.emit({ type: 'agent.changed', agentId }));
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

  /** Its name in its room now. */
  private nameOf(record: ManagedAgentRecord): string {
    return record.session?.display_name ?? record.worker?.display_name ?? 'The agent';
  }

  /** Throws its worktree and branch away (the person confirmed); its next turn starts again from the base. */
  async discard(agentId: string): Promise<AgentWorkspace> {
    const row = await this.requireRow(agentId);
    if (this.scheduler.state(agentId) === 'running') throw appErrors.invalidInput('It is taking a turn now; stop it before discarding its changes.');
    await this.workspaces.discard(agentId, row.folder);
    await this.options.store.write(async (tx) => tx.emit({ type: 'agent.changed', agentId }));
    return this.workspaces.of(agentId, row.folder);
  }

  /** No new turns; a running turn finishes; what activates it meanwhile waits for Resume. */
  async pause(agentId: string): Promise<ManagedAgentRecord> {
    await this.requireRow(agentId);
    await this.options.store.write(async (tx) => {
      await updateManagedAgentState(tx, agentId, { desired_state: 'paused' });
      tx.emit({ type: 'agent.changed', agentId });
    });
    await this.stopTurns(agentId);
    return this.get(agentId);
  }

  /**
   * Takes turns again: a held agent gets a fresh budget window, one whose CLI could not run
   * tries again, its "Needs you" item goes, and what activated it meanwhile is its next turn.
   */
  async resume(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    const row = await this.requireRow(agentId);
    await this.options.store.write(async (tx) => {
      const held = row.held_reason !== null;
      await updateManagedAgentState(tx, agentId, {
        desired_state: 'running',
        held_reason: null,
        held_request_number: null,
        cant_run_json: null,
        ...(held ? { budget_reset_at: tx.now } : {}),
      });
      // Its "Needs you" item goes (a request, from before issue 14, or the app's own item).
      if (row.held_request_number !== null && (await getRequestRow(tx, row.room_id, row.held_request_number))?.status === 'open') {
        await dismissRequest(tx, person, row.room_id, row.held_request_number);
      }
      const sessionId = workerSessionId(row.worker_id, row.room_id);
      for (const alert of await openAlerts(tx, 'agent_budget', row.room_id)) {
        if (alert.session_id === sessionId) await closeAlert(tx, row.room_id, alert.number, 'resolved');
      }
      tx.emit({ type: 'agent.changed', agentId });
    });
    const record = await this.get(agentId);
    this.track(record.row, record.worker);
    for (const trigger of await takeWaiting(this.options.store, agentId)) this.scheduler.request(agentId, trigger);
    return this.get(agentId);
  }

  /** Ends the running turn now (its whole process tree) and drops the queued one; the room is told. */
  async stop(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    const before = await this.get(agentId);
    if (await this.scheduler.stop(agentId)) {
      const name = before.session?.display_name ?? before.worker?.display_name ?? 'The agent';
      await this.options.store.write(async (tx) => {
        await postSystemEvent(tx, before.row.room_id, `${name}'s turn was stopped by ${person.label}.`, null);
        await this.markOwnEvent(tx, before.row.room_id);
      });
    }
    return this.get(agentId);
  }

  /** A turn now (with what waited for it), or right after the running one; refused while held or unable to run. */
  async runNow(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    const record = await this.get(agentId);
    const name = record.session?.display_name ?? 'This agent';
    if (record.row.held_reason !== null) {
      throw appErrors.invalidInput(`${name} takes no turns: ${heldReasonText(record.row, record.row.held_reason)}. Resume it first.`);
    }
    const cantRun = parseCantRun(record.row.cant_run_json);
    if (cantRun) throw appErrors.invalidInput(`${name} can't run: ${cantRun.reason}. ${cantRun.fix}`);
    for (const trigger of await takeWaiting(this.options.store, agentId)) this.scheduler.request(agentId, trigger);
    this.scheduler.request(agentId, { kind: 'run_now', by: person.label });
    return this.get(agentId);
  }

  /** Stops it, removes it from its room (its tasks there go back to accepted) and forgets it. */
  async remove(agentId: string, person: PersonActor, discardWork = false): Promise<boolean> {
    const record = await this.get(agentId);
    // Refused, with nothing changed, while its worktree holds work the person has not let go.
    await this.workspaces.checkRemovable(agentId, record.row.folder, discardWork);
    this.members.delete(agentId);
    await this.scheduler.stop(agentId);
    if (record.session && record.session.ended_at === null) await this.options.endSessionByPerson(record.session.session_id, 'remove', person);
    const removed = await this.options.store.write(async (tx) => {
      const gone = await deleteManagedAgentRow(tx, agentId);
      tx.emit({ type: 'agent.changed', agentId });
      return gone;
    });
    rmSync(this.agentDir(agentId), { recursive: true, force: true });
    await this.workspaces.forget(agentId, record.row.folder);
    return removed;
  }

  /** The provider process of the agent's running turn (tests check what it was given). */
  runningPid(agentId: string): number | null {
    return this.pids.get(agentId) ?? null;
  }

  async close(): Promise<void> {
    this.stopWatching();
    await this.ready;
    await this.scheduler.close();
  }

  private async load(): Promise<void> {
    if ((await this.options.store.read((q) => countRunningTurns(q))) > 0) {
      await this.options.store.write((tx) => failInterruptedTurns(tx, 'The app stopped during this turn.'));
    }
    for (const row of await this.options.store.read((q) => listManagedAgentRows(q))) {
      this.track(row, await this.options.store.read((q) => getWorker(q, row.worker_id)));
    }
  }

  /** Routes the room's messages to the agent from now on: as turns, or kept while it takes none. */
  private track(row: ManagedAgentRow, worker: WorkerRow | undefined): void {
    if (!worker) return;
    const takesTurns = row.desired_state === 'running' && row.held_reason === null && row.cant_run_json === null;
    this.members.set(row.agent_id, { agentId: row.agent_id, roomId: row.room_id, sessionId: workerSessionId(worker.worker_id, row.room_id), agentKey: worker.agent_key, takesTurns });
  }

  /** No turns until Resume: what was queued for it is kept. */
  private async stopTurns(agentId: string): Promise<void> {
    const member = this.members.get(agentId);
    if (member) this.members.set(agentId, { ...member, takesTurns: false });
    await this.keep(agentId, this.scheduler.forget(agentId));
  }

  private async keep(agentId: string, triggers: readonly Trigger[]): Promise<void> {
    await keepTriggers(this.options.store, agentId, triggers).catch((error: unknown) => console.error(`managed agent ${agentId}: could not keep its triggers:`, error));
  }

  /** One scheduled turn: re-checked (paused, removed, budget) at the moment it starts. */
  private async turn(agentId: string, triggers: Trigger[], signal: AbortSignal): Promise<void> {
    const { store } = this.options;
    const row = await store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) return;
    // Paused, held or unable to run since it was queued: the triggers wait for its next turn.
    if (row.held_reason !== null || row.cant_run_json !== null || (row.desired_state === 'paused' && !triggers.some((t) => t.kind === 'run_now'))) {
      return this.keep(agentId, triggers);
    }
    const budget = await store.read((q) => budgetUse(q, row, new Date()));
    if (budget.reached) {
      await this.keep(agentId, triggers);
      return this.hold(row, budget.reached);
    }
    const worker = await store.read((q) => getWorker(q, row.worker_id));
    const session = await store.read((q) => getSession(q, workerSessionId(row.worker_id, row.room_id)));
    const room = await store.read((q) => getRoom(q, row.room_id));
    if (!worker || !room) return;
    const workspace = await this.workspaces.forTurn(agentId, row.folder);
    const prompt = buildTurnPrompt({
      workspace,
      name: session?.display_name ?? worker.display_name,
      workerId: worker.worker_id,
      roomId: row.room_id,
      roomName: room.display_name,
      instructions: row.instructions,
      triggers,
    });
    const deps = {
      store,
      env: this.env,
      home: this.options.home,
      dataDir: this.options.dataDir,
      approvals: this.options.services.approvals,
      helper: this.options.helper,
      agentDir: (id: string) => this.agentDir(id),
      onProcess: (id: string, pid: number | null) => (pid === null ? this.pids.delete(id) : this.pids.set(id, pid)),
      changesOfTurn: () => this.workspaces.turnSummary(agentId, row.folder),
      reconnectLimitMs: this.options.reconnectLimitMs,
    };
    // The turn's prompt hands it the triggering messages: they are delivered to it now.
    const sessionId = workerSessionId(row.worker_id, row.room_id);
    for (const t of triggers) {
      if (t.kind === 'message') this.options.services.delivery.deliveries.record({ place: store.place, roomId: t.roomId }, sessionId, t.number, t.number);
    }
    // The turn runs where the agent works: its worktree, or the folder itself.
    const outcome = await runTurn(deps, { agent: { ...row, folder: workspace.path }, prompt, triggers, name: session?.display_name ?? worker.display_name }, signal);
    if (outcome.cantRun) await this.cannotRun(row, outcome.cantRun, triggers);
  }

  /**
   * Its CLI cannot run for a reason only the person can fix: no turns until Resume (which
   * tries again with what activated it meanwhile, this turn's triggers first), one "Needs
   * you" item with the fix, and the card and `agent list` say "Can't run: …".
   */
  private async cannotRun(row: ManagedAgentRow, cantRun: CantRun, triggers: readonly Trigger[]): Promise<void> {
    await this.stopTurns(row.agent_id);
    await this.keep(row.agent_id, triggers);
    await recordHold(this.options.store, row, { cantRun });
  }

  /** A budget is used up: no turns until the person resumes it, and a "Needs you" item says so. */
  private async hold(row: ManagedAgentRow, reason: HeldReason): Promise<void> {
    await this.stopTurns(row.agent_id);
    await recordHold(this.options.store, row, { budget: reason });
  }

  private async recordOf(row: ManagedAgentRow): Promise<ManagedAgentRecord> {
    const { store } = this.options;
    const worker = await store.read((q) => getWorker(q, row.worker_id));
    const session = await store.read((q) => getSession(q, workerSessionId(row.worker_id, row.room_id)));
    const room = await store.read((q) => getRoom(q, row.room_id));
    const budget = await store.read((q) => budgetUse(q, row, new Date()));
    const lastTurn = await store.read(async (q) => (await listTurnRows(q, row.agent_id, 1))[0]);
    const workspace = this.workspaces.of(row.agent_id, row.folder);
    return { row, worker, session, roomName: room?.display_name ?? row.room_id, turnState: this.scheduler.state(row.agent_id), budget, lastTurn, workspace };
  }

  private async requireRow(agentId: string): Promise<ManagedAgentRow> {
    await this.ready;
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) throw appErrors.notFound('Managed agent');
    return row;
  }

  /** The message just posted in this write (a join, a stop notice) starts no managed turn. */
  private async markOwnEvent(tx: Tx, roomId: string): Promise<void> {
    const key = `${roomId}\n${await latestNumber(tx, roomId)}`;
    // Noted after the commit (before its events go out): a write that rolls back, or is run
    // again, leaves nothing behind.
    tx.afterCommit(() => this.ownEvents.add(key));
  }

  /** Agents whose room was deleted went with it. */
  private async forgetVanished(): Promise<void> {
    for (const agentId of [...this.members.keys()]) {
      if (!(await this.options.store.read((q) => getManagedAgentRow(q, agentId)))) {
        this.members.delete(agentId);
        await this.scheduler.stop(agentId);
      }
    }
  }

  /** The branch of the room's managed agent with this key, when it works in a worktree of its own. */
  private async branchOf(roomId: string, agentKey: string): Promise<string | null> {
    const member = [...this.members.values()].find((m) => m.roomId === roomId && m.agentKey === agentKey);
    const row = member ? await this.options.store.read((q) => getManagedAgentRow(q, member.agentId)) : undefined;
    if (!row) return null;
    const workspace = this.workspaces.of(row.agent_id, row.folder);
    return workspace.kind === 'worktree' ? workspace.branch : null;
  }

  private agentDir(agentId: string): string {
    return join(this.options.dataDir, 'managed-agents', agentId);
  }
}
