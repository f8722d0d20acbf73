// The managed-agents service: adds agents (registering each one's durable worker in its
// room before its first turn), keeps the state a person asked for (running, paused; it
// survives a restart), gives agents turns when triggers fire, holds them when a budget is
// used up or its CLI cannot run for a reason the person must fix (and asks the person in
// "Needs you", through the same raising code as the app's other delivery items), keeps what
// activates an agent that takes no turns for its next one, and stops, resumes and removes them.
// A message handed to a turn is delivered to the agent when the turn starts (receipts).
// Its room may be this computer's or a team's (agentRoom.ts): its worker, session, messages,
// receipts and "Needs you" items live in the room's place; its settings, turns, activity,
// worktree and CLI session stay in this computer's store.
// Provider limits that pass by themselves (a usage limit's reset, a short rate limit) are
// usageLimits.ts's; automations (automations/, above this folder) start turns through
// startAutomationTurn and shape them through AutomationTurnHooks.
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
import { getRoom, type RoomRow } from '../domain/rooms/rooms';
import { endSession, getSession, insertWorkerSession, type SessionRow } from '../domain/sessions/sessions';
import { heartbeat } from '../domain/sessions/presence';
import { normalizeHandle } from '../domain/identity/handles';
import { findOrCreateWorker, getWorker, type WorkerRow } from '../domain/sessions/workers';
import { postSystemEvent } from '../domain/systemEvents';
import type { EventBus } from '../events/bus';
import type { McpServices } from '../mcp/services';
import type { HelperCommand } from '../setup/helperCommand';
import { getRequestRow } from '../store/knowledgeQueries';
import {
  countRunningTurns, deleteManagedAgentRow, deleteManagedMember, failInterruptedTurns, getManagedAgentRow, insertManagedAgentRow, listManagedAgentRows,
  listTurnRows, updateManagedAgentState, type HeldReason, type ManagedAgentRow, type TurnRow,
} from '../store/managedAgentQueries';
import { LOCAL_PLACE, storageIn } from '../store/places';
import type { Storage, Tx } from '../store/port';
import { forgetMember, locateAgentRoom, noteMember, noteTakesTurns } from './agentRoom';
import { childEnv } from '../childEnv';
import { checkAgentConfig } from './agentConfig';
import { watchClaims } from './branchArtifacts';
import { budgetUse, heldReasonText, type BudgetUse } from './budgets';
import { systemClock, type Clock } from './clock';
import { timeText } from './timeText';
import { UsageLimits } from './usageLimits';
import { recordHold } from './agentHolds';
import { cantRunOf, parseCantRun, type CantRun } from './cantRun';
import { buildTurnPrompt } from './prompt';
import { locateProvider, PROVIDER_LIST, providerOf } from './providers';
import { watchTriggers, type MemberAgent } from './triggers';
import { signInWarning } from './signInCheck';
import { runTurn, type TurnOutcome } from './turnRunner';
import { isAutomation, planAutomationTurn, type AutomationTrigger, type AutomationTurnHooks } from './automationTurns';
import { TurnScheduler } from './turnScheduler';
import type { Trigger } from './types';
import { AgentWorkspaces } from './workspace/agentWorkspaces';
import { keepTriggers, takeWaiting } from './waitingTriggers';

export interface ManagedAgentsOptions {
  readonly store: Storage;
  readonly bus: EventBus;
  /** The MCP layer's services: routing reads presence and owner identity from them. */
  readonly services: McpServices;
  /** Ends an agent's session in its room's place as a person (remove from room). */
  endSessionByPerson(place: string, sessionId: string, mode: 'remove', person: PersonActor): Promise<void>;
  readonly dataDir: string;
  readonly helper: HelperCommand;
  /** The person's environment (the provider runs with their login). */
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly maxConcurrentTurns?: number;
  readonly turnTimeLimitMs?: number;
  /** What time it is, and timers (a usage limit's reset, a rate limit's backoff); tests move it by hand. */
  readonly clock?: Clock;
  /** The waits before trying a rate-limited turn again (default 30 s, 2 min, 8 min). */
  readonly rateLimitBackoffMs?: readonly number[];
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
  /** Rate limited: when it tries again (ISO); null otherwise. */
  readonly retryAt: string | null;
}

export class ManagedAgents {
  private readonly scheduler: TurnScheduler;
  /** Every managed agent with a worker, by id; `takesTurns`: running, not held, able to run. */
  private readonly members = new Map<string, MemberAgent & { place: string; roomId: string }>();
  /** Agents whose room's place could not be read yet (a team offline at start): tracked once it can. */
  private readonly untracked = new Map<string, ManagedAgentRow>();
  private readonly ownEvents = new Set<string>();
  private readonly pids = new Map<string, number>();
  private readonly env: NodeJS.ProcessEnv;
  private readonly workspaces: AgentWorkspaces;
  private readonly stopWatching: () => void;
  private readonly limits: UsageLimits;
  private hooks: AutomationTurnHooks | null = null;
  readonly clock: Clock;
  readonly ready: Promise<void>;

  constructor(private readonly options: ManagedAgentsOptions) {
    this.env = childEnv(options.env);
    this.clock = options.clock ?? systemClock;
    this.workspaces = new AgentWorkspaces(options.dataDir);
    this.limits = new UsageLimits({
      store: options.store,
      clock: this.clock,
      backoffMs: options.rateLimitBackoffMs,
      stopTurns: (agentId) => this.stopTurns(agentId),
      keep: (agentId, triggers) => this.keep(agentId, triggers),
      resumeTurns: (agentId) => this.resumeTurns(agentId),
      notice: (row, text) => this.notice(row, text),
      nameOf: async (row) => (await this.get(row.agent_id)).session?.display_name ?? 'The agent',
    });
    this.scheduler = new TurnScheduler({
      maxConcurrent: options.maxConcurrentTurns,
      turnTimeLimitMs: options.turnTimeLimitMs,
      runTurn: (agentId, triggers, signal) => this.turn(agentId, triggers, signal),
      onStateChange: (agentId) => options.bus.publish({ type: 'agent.changed', agentId }),
    });
    const stopTriggers = watchTriggers(options.bus, options.services, {
      agentsIn: async (place, roomId) => {
        await this.trackPending(place);
        return [...this.members.values()].filter((a) => a.place === place && a.roomId === roomId);
      },
      request: (agentId, trigger) => this.scheduler.request(agentId, trigger),
      keep: (agentId, trigger) => void this.keep(agentId, [trigger]),
      isInTurn: (agentId) => this.scheduler.state(agentId) === 'running',
      isBusy: (agentId) => this.scheduler.state(agentId) !== 'idle',
      roomOf: (agentId) => {
        const member = this.members.get(agentId);
        return member ? { place: member.place, roomId: member.roomId } : null;
      },
      takeOwnEvent: (place, roomId, number) => this.ownEvents.delete(`${place}\n${roomId}\n${number}`),
      roomDeleted: (place, roomId) => void this.forgetVanished(place, roomId),
    });
    const runsAgentsIn = (place: string, roomId: string) => [...this.members.values()].some((m) => m.place === place && m.roomId === roomId);
    const stopClaims = watchClaims(options.bus, options.services.places, runsAgentsIn, (place, roomId, agentKey) => this.branchOf(place, roomId, agentKey));
    this.stopWatching = () => {
      stopTriggers();
      stopClaims();
    };
    // A start-up that cannot read or write the store leaves managed agents idle, never the app down.
    this.ready = this.load().catch((error: unknown) => console.error('managed agents: could not load:', error));
  }

  /** The automations service shapes the turns it asks for (one service per app). */
  useAutomationHooks(hooks: AutomationTurnHooks): void {
    this.hooks = hooks;
  }

  /**
   * An automation's run asks for a turn: null when it is asked for (now, or after the agent's
   * running turn), or why the agent takes no turns now (the run cannot start).
   */
  async startAutomationTurn(agentId: string, trigger: AutomationTrigger): Promise<string | null> {
    await this.ready;
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) return 'its agent was removed';
    const reason = await this.noTurnsReason(row);
    if (reason) return reason;
    this.scheduler.request(agentId, trigger);
    return null;
  }

  /** A fresh worktree of the agent's repository for one automation run (`key` names it), or where it works when it gets none. */
  runWorkspace(row: ManagedAgentRow, key: string, name: string): Promise<AgentWorkspace> {
    return this.workspaces.create({ agentId: key, name, folder: row.folder, writes: row.permissions !== 'read_only', inFolder: false });
  }

  /** After a run in a fresh worktree: removed with its branch when it holds nothing; otherwise kept, and what it holds is said. */
  async endRunWorkspace(key: string, folder: string): Promise<string | null> {
    const held = await this.workspaces.checkRemovable(key, folder, false).then(() => null, (error: unknown) => (error as Error).message);
    if (held === null) await this.workspaces.forget(key, folder).catch(() => undefined);
    return held === null ? null : ((await this.workspaces.turnSummary(key, folder)) ?? held);
  }

  /** Why the agent takes no turns now, in words that follow its name ("Juniper is paused"); null when it takes them. */
  private async noTurnsReason(row: ManagedAgentRow): Promise<string | null> {
    const cantRun = parseCantRun(row.cant_run_json);
    const why = cantRun
      ? `can't run: ${cantRun.reason}`
      : row.limit_until !== null
        ? `waits for ${providerOf(row.provider).name}'s usage limit to reset (after ${timeText(Date.parse(row.limit_until), this.clock.now())})`
        : row.held_reason !== null
          ? `takes no turns: ${heldReasonText(row, row.held_reason)}`
          : row.desired_state === 'paused'
            ? 'is paused'
            : null;
    if (why === null) return null;
    const session = await this.options.store.read((q) => getSession(q, workerSessionId(row.worker_id, row.room_id)));
    return `${session?.display_name ?? 'Its agent'} ${why}`;
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
    const room = await locateAgentRoom(this.options.services.places, input.roomId, input.place);
    const config = await checkAgentConfig(room, this.env, input);
    const repoBranch = await gitCurrentBranch(config.folder).catch(() => null);
    const owner = await this.options.services.owner();
    const host = await this.options.services.host();
    const agentId = `agent_${randomBytes(16).toString('hex')}`;
    // In its room's place: its worker, its session (the join) and its member row.
    const joinRoom = async (tx: Tx) => {
      const { worker } = await findOrCreateWorker(tx, {
        // The app registers the worker itself; the key is never needed again (the app keeps the worker_id).
        registrationKey: randomBytes(32).toString('base64url'),
        requestedName: config.name,
        ownerLabel: owner.ownerLabel,
        ownerSlug: owner.ownerSlug,
        ideLabel: providerOf(config.provider).name,
      });
      const session = await insertWorkerSession(tx, { worker, roomId: config.roomId, repoBranch });
      // Another machine's agent took the name since it was checked: nothing is kept.
      if (session.name_key !== normalizeHandle(config.name)) throw appErrors.nameTaken();
      await this.markOwnEvent(tx, room.place, config.roomId);
      // Other machines show it run by this app while this app heartbeats there.
      if (room.place !== LOCAL_PLACE) await heartbeat(tx, host);
      await noteMember(tx, room.place, { agentId, workerId: worker.worker_id, roomId: config.roomId }, host, true);
      return worker;
    };
    // On this computer: its settings.
    const keepSettings = async (tx: Tx, workerId: string) => {
      await insertManagedAgentRow(tx, {
        agent_id: agentId,
        worker_id: workerId,
        room_id: config.roomId,
        place: room.place,
        name: config.name,
        provider: config.provider,
        folder: config.folder,
        instructions: config.instructions,
        model: config.model,
        permissions: config.permissions,
        turns_per_hour: config.turnsPerHour,
        daily_token_cap: config.dailyTokenCap,
      });
      tx.emit({ type: 'agent.changed', agentId });
    };
    if (room.place === LOCAL_PLACE) {
      await this.options.store.write(async (tx) => keepSettings(tx, (await joinRoom(tx)).worker_id));
    } else {
      const worker = await room.storage.write(joinRoom);
      await this.options.store.write((tx) => keepSettings(tx, worker.worker_id)).catch(async (error: unknown) => {
        // Not kept here: it leaves the team's room again rather than staying there unrun.
        await this.leaveRoom(room.place, agentId, workerSessionId(worker.worker_id, config.roomId)).catch(() => undefined);
        throw error;
      });
    }
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
    await this.stopTurns(agentId, 'its agent was paused');
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
        limit_until: null,
        ...(held ? { budget_reset_at: tx.now } : {}),
      });
      tx.emit({ type: 'agent.changed', agentId });
    });
    // Its "Needs you" item, in its room's place (a team offline then keeps it open: resuming works anyway).
    await this.closeHoldItems(row, person).catch((error: unknown) => console.warn(`managed agent ${agentId}: could not close its "Needs you" item:`, error));
    await noteTakesTurns(this.options.services.places, row, true);
    this.limits.forget(agentId);
    const record = await this.get(agentId);
    this.track(record.row, record.worker);
    for (const trigger of await takeWaiting(this.options.store, agentId)) this.scheduler.request(agentId, trigger);
    return this.get(agentId);
  }

  private async closeHoldItems(row: ManagedAgentRow, person: PersonActor): Promise<void> {
    await (await this.roomStore(row)).write(async (tx) => {
      // Its "Needs you" item goes (a request, from before issue 14, or the app's own item).
      if (row.held_request_number !== null && (await getRequestRow(tx, row.room_id, row.held_request_number))?.status === 'open') {
        await dismissRequest(tx, person, row.room_id, row.held_request_number);
      }
      const sessionId = workerSessionId(row.worker_id, row.room_id);
      for (const alert of await openAlerts(tx, 'agent_budget', row.room_id)) {
        if (alert.session_id === sessionId) await closeAlert(tx, row.room_id, alert.number, 'resolved');
      }
    });
  }

  /** Ends the running turn now (its whole process tree) and drops the queued one; the room is told. */
  async stop(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    const before = await this.get(agentId);
    if (await this.scheduler.stop(agentId)) {
      const name = before.session?.display_name ?? before.worker?.display_name ?? 'The agent';
      await (await this.roomStore(before.row)).write(async (tx) => {
        await postSystemEvent(tx, before.row.room_id, `${name}'s turn was stopped by ${person.label}.`, null);
        await this.markOwnEvent(tx, before.row.place, before.row.room_id);
      });
    }
    return this.get(agentId);
  }

  /** A turn now (with what waited for it), or right after the running one; refused while held or unable to run. */
  async runNow(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    const record = await this.get(agentId);
    const name = record.session?.display_name ?? record.row.name;
    if (record.row.held_reason !== null) {
      throw appErrors.invalidInput(`${name} takes no turns: ${heldReasonText(record.row, record.row.held_reason)}. Resume it first.`);
    }
    const cantRun = parseCantRun(record.row.cant_run_json);
    if (cantRun) throw appErrors.invalidInput(`${name} can't run: ${cantRun.reason}. ${cantRun.fix}`);
    if (record.row.limit_until !== null) throw appErrors.invalidInput(`${(await this.noTurnsReason(record.row)) ?? name}. Resume tries now.`);
    for (const trigger of await takeWaiting(this.options.store, agentId)) this.scheduler.request(agentId, trigger);
    this.scheduler.request(agentId, { kind: 'run_now', by: person.label });
    return this.get(agentId);
  }

  /** Stops it, removes it from its room (its tasks there go back to accepted) and forgets it. */
  async remove(agentId: string, person: PersonActor, discardWork = false): Promise<boolean> {
    const record = await this.get(agentId);
    // Refused, with nothing changed, while its worktree holds work the person has not let go.
    await this.workspaces.checkRemovable(agentId, record.row.folder, discardWork);
    // Its room first (a team offline refuses the removal, nothing changed): no machine shows it a member after.
    if (record.session && record.session.ended_at === null) {
      await this.scheduler.stop(agentId);
      await this.options.endSessionByPerson(record.row.place, record.session.session_id, 'remove', person);
    }
    await forgetMember(await this.roomStore(record.row), agentId);
    this.members.delete(agentId);
    this.untracked.delete(agentId);
    this.limits.forget(agentId);
    for (const trigger of this.scheduler.forget(agentId).filter(isAutomation)) await this.hooks?.dropped(agentId, trigger, 'its agent was removed');
    await this.scheduler.stop(agentId);
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
    this.limits.close();
    await this.scheduler.close();
  }

  private async load(): Promise<void> {
    if ((await this.options.store.read((q) => countRunningTurns(q))) > 0) {
      await this.options.store.write((tx) => failInterruptedTurns(tx, 'The app stopped during this turn.'));
    }
    for (const row of await this.options.store.read((q) => listManagedAgentRows(q))) this.untracked.set(row.agent_id, row);
    await this.trackPending();
  }

  /**
   * Tracks the agents (of `place`, or all) whose room could not be read yet: in a team room,
   * this app says again that it runs them (other machines show them run here while it
   * heartbeats there). One whose room is gone (deleted while the app was closed) goes.
   */
  private async trackPending(place?: string): Promise<void> {
    for (const row of [...this.untracked.values()]) {
      if (place !== undefined && row.place !== place) continue;
      const known = await this.roomSide(row).catch(() => null);
      if (!known) continue;
      this.untracked.delete(row.agent_id);
      if (!known.room) {
        await this.options.store.write((tx) => deleteManagedAgentRow(tx, row.agent_id));
        continue;
      }
      if (row.place !== LOCAL_PLACE && known.worker) {
        const host = await this.options.services.host();
        const takesTurns = row.desired_state === 'running' && row.held_reason === null && row.cant_run_json === null;
        await known.storage.write(async (tx) => {
          await heartbeat(tx, host);
          await noteMember(tx, row.place, { agentId: row.agent_id, workerId: row.worker_id, roomId: row.room_id }, host, takesTurns);
        });
      }
      this.track(row, known.worker);
    }
    await this.limits.restore();
    // What waited for a rate limit's retry when the app stopped is tried again now.
    for (const member of this.members.values()) if (member.takesTurns) await this.resumeTurns(member.agentId);
  }

  /** Its room's place's storage (a team's connects on first use; offline: its reads and writes fail with team_offline). */
  private roomStore(row: Pick<ManagedAgentRow, 'place'>): Promise<Storage> {
    return storageIn(this.options.services.places, row.place);
  }

  /** Its worker, session and room as its room's place holds them (throws while that place cannot be read). */
  private async roomSide(row: ManagedAgentRow): Promise<{ storage: Storage; worker: WorkerRow | undefined; session: SessionRow | undefined; room: RoomRow | null }> {
    const storage = await this.roomStore(row);
    return storage.read(async (q) => ({
      storage,
      worker: await getWorker(q, row.worker_id),
      session: await getSession(q, workerSessionId(row.worker_id, row.room_id)),
      room: await getRoom(q, row.room_id),
    }));
  }

  /** Takes back a join whose settings could not be kept on this computer. */
  private async leaveRoom(place: string, agentId: string, sessionId: string): Promise<void> {
    const storage = await storageIn(this.options.services.places, place);
    await storage.write(async (tx) => {
      await deleteManagedMember(tx, agentId);
      await endSession(tx, sessionId, 'person');
    });
  }

  /** Routes the room's messages to the agent from now on: as turns, or kept while it takes none. */
  private track(row: ManagedAgentRow, worker: WorkerRow | undefined): void {
    const takesTurns = row.desired_state === 'running' && row.held_reason === null && row.cant_run_json === null && row.limit_until === null;
    // Its room's place could not be read just now: what is known of it stays, with its new state.
    if (!worker) {
      const known = this.members.get(row.agent_id);
      if (known) this.members.set(row.agent_id, { ...known, takesTurns });
      return;
    }
    this.members.set(row.agent_id, { agentId: row.agent_id, place: row.place, roomId: row.room_id, sessionId: workerSessionId(worker.worker_id, row.room_id), agentKey: worker.agent_key, takesTurns });
  }

  /** No turns until Resume: what was queued for it is kept (automations' runs end, saying `dropReason`, when given). */
  private async stopTurns(agentId: string, dropReason?: string): Promise<void> {
    const member = this.members.get(agentId);
    if (member) this.members.set(agentId, { ...member, takesTurns: false });
    await this.keep(agentId, this.scheduler.forget(agentId), dropReason);
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (row) await noteTakesTurns(this.options.services.places, row, false);
  }

  /**
   * Keeps triggers for its next turn. An automation's run does not wait for a Resume: with a
   * `dropReason` its trigger goes and the run ends saying why (a limit's hold keeps it).
   */
  private async keep(agentId: string, triggers: readonly Trigger[], dropReason?: string): Promise<void> {
    const dropped = dropReason === undefined ? [] : triggers.filter(isAutomation);
    for (const trigger of dropped) await this.hooks?.dropped(agentId, trigger, dropReason!).catch(logFailure(agentId, 'end an automation run'));
    const kept = triggers.filter((t) => !dropped.includes(t as AutomationTrigger));
    await keepTriggers(this.options.store, agentId, kept).catch(logFailure(agentId, 'keep its triggers'));
  }

  /** Takes turns again (a limit passed): what waited is its next turn; nothing while it takes no turns. */
  private async resumeTurns(agentId: string): Promise<void> {
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) return;
    // Its worker lives in its room's place (a team offline: what is known of it stays).
    this.track(row, (await this.roomSide(row).catch(() => null))?.worker);
    if (!this.members.get(agentId)?.takesTurns) return;
    for (const trigger of await takeWaiting(this.options.store, agentId)) this.scheduler.request(agentId, trigger);
  }

  /** A room message from the app about the agent, which starts no turn. */
  private async notice(row: Pick<ManagedAgentRow, 'place' | 'room_id'>, text: string): Promise<void> {
    await (await this.roomStore(row)).write(async (tx) => {
      await postSystemEvent(tx, row.room_id, text, null);
      await this.markOwnEvent(tx, row.place, row.room_id);
    });
  }

  /** One scheduled turn: re-checked (paused, removed, budget) at the moment it starts. */
  private async turn(agentId: string, queued: Trigger[], signal: AbortSignal): Promise<void> {
    const { store } = this.options;
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
    const side = await this.roomSide(row).catch((error: unknown) => {
      console.warn(`managed agent ${agentId}: its room (${row.place}) cannot be read; the turn waits:`, error);
      return null;
    });
    if (!side) return this.keep(agentId, queued);
    const { worker, session, room } = side;
    if (!worker || !room) return;
    const plan = await planAutomationTurn(this.hooks, row, queued);
    const triggers = plan.triggers;
    if (triggers.length === 0) return;
    const automations = triggers.filter(isAutomation);
    const workspace = plan.workspace ?? (await this.workspaces.forTurn(agentId, row.folder));
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
      roomStore: await this.roomStore(row),
      env: this.env,
      home: this.options.home,
      dataDir: this.options.dataDir,
      approvals: this.options.services.approvals,
      helper: this.options.helper,
      agentDir: (id: string) => this.agentDir(id),
      onProcess: (id: string, pid: number | null) => (pid === null ? this.pids.delete(id) : this.pids.set(id, pid)),
      changesOfTurn: () => this.workspaces.turnSummary(plan.workspaceKey ?? agentId, row.folder),
      onOpened: async (turn: number) => {
        if (automations.length > 0) await this.hooks?.opened(agentId, turn, automations);
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
    const { limit } = outcome;
    const hold = limit?.kind === 'usage_limit' && this.limits.believable(limit.resetsAt) ? limit.resetsAt : null;
    const retry = limit?.kind === 'rate_limited' && this.limits.canRetry(row.agent_id);
    const automations = triggers.filter(isAutomation);
    if (automations.length > 0) await this.hooks?.ended(row.agent_id, automations, outcome, hold !== null || retry).catch(logFailure(row.agent_id, 'record an automation run'));
    if (outcome.cantRun) return this.cannotRun(row, outcome.cantRun, triggers);
    if (hold !== null) return this.limits.hold(row, outcome.turn, triggers, hold);
    if (limit?.kind === 'usage_limit') {
      // A reset time in the past or too far off: only the person can tell when to try again.
      const provider = providerOf(row.provider);
      return this.cannotRun(row, cantRunOf(provider, 'quota', { command: null, model: row.model, detail: `${provider.name} said its usage limit resets at ${limit.resetsAt}.` }), triggers);
    }
    if (limit?.kind === 'rate_limited') {
      await this.limits.retry(row, outcome.turn, triggers);
      return;
    }
    if (outcome.status === 'done') this.limits.succeeded(row.agent_id);
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
    await recordHold(this.options.store, await this.roomStore(row), row, { cantRun });
  }

  /** A budget is used up: no turns until the person resumes it, and a "Needs you" item says so. */
  private async hold(row: ManagedAgentRow, reason: HeldReason): Promise<void> {
    await this.stopTurns(row.agent_id, `its agent ${heldReasonText(row, reason)}`);
    await recordHold(this.options.store, await this.roomStore(row), row, { budget: reason });
  }

  private async recordOf(row: ManagedAgentRow): Promise<ManagedAgentRecord> {
    const { store } = this.options;
    // While its team cannot be read, it is shown from this computer's record (its name, its room's id).
    const { worker, session, room } = (await this.roomSide(row).catch(() => null)) ?? { worker: undefined, session: undefined, room: null };
    const budget = await store.read((q) => budgetUse(q, row, new Date()));
    const lastTurn = await store.read(async (q) => (await listTurnRows(q, row.agent_id, 1))[0]);
    const workspace = this.workspaces.of(row.agent_id, row.folder);
    return {
      row, worker, session, roomName: room?.display_name ?? row.room_id, turnState: this.scheduler.state(row.agent_id), budget, lastTurn, workspace,
      retryAt: this.limits.retryAt(row.agent_id),
    };
  }

  private async requireRow(agentId: string): Promise<ManagedAgentRow> {
    await this.ready;
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) throw appErrors.notFound('Managed agent');
    return row;
  }

  /** The message just posted in this write (a join, a stop notice) starts no managed turn. */
  private async markOwnEvent(tx: Tx, place: string, roomId: string): Promise<void> {
    const key = `${place}\n${roomId}\n${await latestNumber(tx, roomId)}`;
    // Noted after the commit (before its events go out): a write that rolls back, or is run
    // again, leaves nothing behind.
    tx.afterCommit(() => this.ownEvents.add(key));
  }

  /** Agents whose room was deleted went with it (their settings too: they have no room to work in). */
  private async forgetVanished(place: string, roomId: string): Promise<void> {
    for (const member of [...this.members.values()]) {
      if (member.place !== place || member.roomId !== roomId) continue;
      this.members.delete(member.agentId);
      await this.scheduler.stop(member.agentId);
      await this.options.store.write(async (tx) => {
        await deleteManagedAgentRow(tx, member.agentId);
        tx.emit({ type: 'agent.changed', agentId: member.agentId });
      });
    }
  }

  /** The branch of the room's managed agent with this key, when it works in a worktree of its own. */
  private async branchOf(place: string, roomId: string, agentKey: string): Promise<string | null> {
    const member = [...this.members.values()].find((m) => m.place === place && m.roomId === roomId && m.agentKey === agentKey);
    const row = member ? await this.options.store.read((q) => getManagedAgentRow(q, member.agentId)) : undefined;
    if (!row) return null;
    const workspace = this.workspaces.of(row.agent_id, row.folder);
    return workspace.kind === 'worktree' ? workspace.branch : null;
  }

  private agentDir(agentId: string): string {
    return join(this.options.dataDir, 'managed-agents', agentId);
  }
}

const logFailure = (agentId: string, what: string) => (error: unknown) => console.error(`managed agent ${agentId}: could not ${what}:`, error);
