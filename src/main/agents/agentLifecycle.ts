// A managed agent's life as the person steers it: added (joining its room before its first
// turn), paused, resumed, stopped mid-turn, asked to run now, and removed.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { AddAgentInput } from '../../shared/model/managedAgents';
import type { PersonActor } from '../domain/actor';
import { appErrors } from '../domain/errors';
import { workerSessionId } from '../domain/identity/agentKeys';
import { normalizeHandle } from '../domain/identity/handles';
import { gitCurrentBranch } from '../domain/git';
import { closeAlert, openAlerts } from '../domain/knowledge/alerts';
import { dismissRequest } from '../domain/knowledge/requests';
import { insertWorkerSession } from '../domain/sessions/sessions';
import { heartbeat } from '../domain/sessions/presence';
import { findOrCreateWorker } from '../domain/sessions/workers';
import type { McpServices } from '../mcp/services';
import { getRequestRow } from '../store/knowledgeQueries';
import { deleteManagedAgentRow, insertManagedAgentRow, updateManagedAgentState, type ManagedAgentRow } from '../store/managedAgentQueries';
import { LOCAL_PLACE } from '../store/places';
import type { Storage, Tx } from '../store/port';
import { checkAgentConfig } from './agentConfig';
import { nameOf, type ManagedAgentRecord } from './agentRecord';
import { forgetMember, locateAgentRoom, noteMember, noteTakesTurns } from './agentRoom';
import type { AgentTurns } from './agentTurns';
import { isAutomation, type AutomationTurnHooks } from './automationTurns';
import { heldReasonText } from './budgets';
import { parseCantRun } from './cantRun';
import { providerOf } from './providers';
import type { RoomMembers } from './roomMembers';
import type { TurnScheduler } from './turnScheduler';
import type { UsageLimits } from './usageLimits';
import { takeWaiting } from './waitingTriggers';
import type { AgentWorkspaces } from './workspace/agentWorkspaces';

export interface AgentLifecycleOptions {
  readonly store: Storage;
  readonly services: McpServices;
  readonly env: NodeJS.ProcessEnv;
  /** Ends an agent's session in its room's place as a person (remove from room). */
  endSessionByPerson(place: string, sessionId: string, mode: 'remove', person: PersonActor): Promise<void>;
  readonly scheduler: TurnScheduler;
  readonly room: RoomMembers;
  readonly turns: AgentTurns;
  readonly limits: UsageLimits;
  readonly workspaces: AgentWorkspaces;
  readonly hooks: () => AutomationTurnHooks | null;
  get(agentId: string): Promise<ManagedAgentRecord>;
  requireRow(agentId: string): Promise<ManagedAgentRow>;
}

export class AgentLifecycle {
  constructor(private readonly options: AgentLifecycleOptions) {}

  /** Registers its worker and joins its room (in the room's place), then keeps its settings on this computer. */
  async add(input: AddAgentInput): Promise<ManagedAgentRecord> {
    const { services, room: members } = this.options;
    const room = await locateAgentRoom(services.places, input.roomId, input.place);
    const config = await checkAgentConfig(room, this.options.env, input);
    const repoBranch = await gitCurrentBranch(config.folder).catch(() => null);
    const owner = await services.owner();
    const host = await services.host();
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
      await members.markOwnEvent(tx, room.place, config.roomId);
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
        await members.leaveRoom(room.place, agentId, workerSessionId(worker.worker_id, config.roomId)).catch(() => undefined);
        throw error;
      });
    }
    await this.options.workspaces.create({ agentId, name: config.name, folder: config.folder, writes: config.permissions !== 'read_only', inFolder: input.workInFolder === true });
    const record = await this.options.get(agentId);
    members.track(record.row, record.worker);
    return record;
  }

  /** No new turns; a running turn finishes; what activates it meanwhile waits for Resume. */
  async pause(agentId: string): Promise<void> {
    await this.options.requireRow(agentId);
    await this.options.store.write(async (tx) => {
      await updateManagedAgentState(tx, agentId, { desired_state: 'paused' });
      tx.emit({ type: 'agent.changed', agentId });
    });
    await this.options.turns.stopTurns(agentId, 'its agent was paused');
  }

  /**
   * Takes turns again: a held agent gets a fresh budget window, one whose CLI could not run
   * tries again, its "Needs you" item goes, and what activated it meanwhile is its next turn.
   */
  async resume(agentId: string, person: PersonActor): Promise<void> {
    const row = await this.options.requireRow(agentId);
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
    await noteTakesTurns(this.options.services, row, true);
    this.options.limits.forget(agentId);
    // Removed meanwhile: refused as not found, as every action on a removed agent is.
    await this.options.requireRow(agentId);
    await this.options.turns.resumeTurns(agentId, true);
  }

  private async closeHoldItems(row: ManagedAgentRow, person: PersonActor): Promise<void> {
    await (await this.options.room.roomStore(row)).write(async (tx) => {
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
  async stop(agentId: string, person: PersonActor): Promise<void> {
    const before = await this.options.get(agentId);
    if (await this.options.scheduler.stop(agentId)) {
      // The turn is stopped: its team offline loses only the room's notice of it, never the stop.
      await this.options.room.notice(before.row, `${nameOf(before)}'s turn was stopped by ${person.label}.`)
        .catch((error: unknown) => console.warn(`managed agent ${agentId}: could not tell its room its turn was stopped:`, error));
    }
  }

  /** A turn now (with what waited for it), or right after the running one; refused while held or unable to run. */
  async runNow(agentId: string, person: PersonActor): Promise<void> {
    const record = await this.options.get(agentId);
    const name = record.session?.display_name ?? record.row.name;
    if (record.row.held_reason !== null) {
      throw appErrors.invalidInput(`${name} takes no turns: ${heldReasonText(record.row, record.row.held_reason)}. Resume it first.`);
    }
    const cantRun = parseCantRun(record.row.cant_run_json);
    if (cantRun) throw appErrors.invalidInput(`${name} can't run: ${cantRun.reason}. ${cantRun.fix}`);
    if (record.row.limit_until !== null) throw appErrors.invalidInput(`${(await this.options.turns.noTurnsReason(record.row)) ?? name}. Resume tries now.`);
    const { scheduler } = this.options;
    for (const trigger of await takeWaiting(this.options.store, agentId)) scheduler.request(agentId, trigger);
    scheduler.request(agentId, { kind: 'run_now', by: person.label });
  }

  /** Stops it, removes it from its room (its tasks there go back to accepted) and forgets it. */
  async remove(agentId: string, person: PersonActor, discardWork = false): Promise<boolean> {
    const { scheduler, workspaces } = this.options;
    const record = await this.options.get(agentId);
    // Refused, with nothing changed, while its worktree holds work the person has not let go.
    await workspaces.checkRemovable(agentId, record.row.folder, discardWork);
    // Its room first (a team offline refuses the removal, nothing changed): no machine shows it a member after.
    if (record.session && record.session.ended_at === null) {
      await scheduler.stop(agentId);
      await this.options.endSessionByPerson(record.row.place, record.session.session_id, 'remove', person);
    }
    await forgetMember(await this.options.room.roomStore(record.row), agentId);
    this.options.room.forget(agentId);
    this.options.limits.forget(agentId);
    for (const trigger of scheduler.forget(agentId).filter(isAutomation)) await this.options.hooks()?.dropped(agentId, trigger, 'its agent was removed');
    await scheduler.stop(agentId);
    const removed = await this.options.store.write(async (tx) => {
      const gone = await deleteManagedAgentRow(tx, agentId);
      tx.emit({ type: 'agent.changed', agentId });
      return gone;
    });
    rmSync(this.options.turns.agentDir(agentId), { recursive: true, force: true });
    await workspaces.forget(agentId, record.row.folder);
    return removed;
  }
}
