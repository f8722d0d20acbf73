// The managed-agents service: agents that the app runs headless in a room, each turn given
// when triggers fire. This class puts the parts together and is what the app, API and
// automations call: the room side (roomMembers.ts), the turn side (agentTurns.ts), the
// person's steering (agentLifecycle.ts: add, pause, resume, stop, run now, remove), its
// branch (agentBranches.ts), what is shown of it (agentRecord.ts), and provider limits that
// pass by themselves (usageLimits.ts). A person's Pause and Resume survive a restart.
// Its room may be this computer's or a team's (agentRoom.ts): its worker, session, messages,
// receipts and "Needs you" items live in the room's place; its settings, turns, activity,
// worktree and CLI session stay in this computer's store. Automations (automations/, above
// this folder) start turns through startAutomationTurn and shape them through AutomationTurnHooks.
import type { AddAgentInput, AgentChanges, AgentWorkspace, MergeResult, ProviderInfo, RedoRequest, UpdateResult } from '../../shared/model/managedAgents';
import type { PersonActor } from '../domain/actor';
import { appErrors } from '../domain/errors';
import type { EventBus } from '../events/bus';
import type { McpServices } from '../mcp/services';
import type { HelperCommand } from '../setup/helperCommand';
import { countRunningTurns, failInterruptedTurns, getManagedAgentRow, listManagedAgentRows, type ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { childEnv } from '../childEnv';
import { AgentBranches } from './agentBranches';
import { AgentLifecycle } from './agentLifecycle';
import { recordOf, type ManagedAgentRecord } from './agentRecord';
import { AgentTurns } from './agentTurns';
import type { AutomationTrigger, AutomationTurnHooks } from './automationTurns';
import { watchClaims } from './branchArtifacts';
import { systemClock, type Clock } from './clock';
import { locateProvider, PROVIDER_LIST } from './providers';
import { RoomMembers } from './roomMembers';
import { signInWarning } from './signInCheck';
import { watchTriggers } from './triggers';
import { TurnScheduler } from './turnScheduler';
import { UsageLimits } from './usageLimits';
import { AgentWorkspaces } from './workspace/agentWorkspaces';

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

export class ManagedAgents {
  private readonly scheduler: TurnScheduler;
  private readonly room: RoomMembers;
  private readonly turns: AgentTurns;
  private readonly lifecycle: AgentLifecycle;
  private readonly branches: AgentBranches;
  private readonly env: NodeJS.ProcessEnv;
  private readonly workspaces: AgentWorkspaces;
  private readonly stopWatching: () => void;
  private readonly limits: UsageLimits;
  private hooks: AutomationTurnHooks | null = null;
  readonly clock: Clock;
  readonly ready: Promise<void>;

  constructor(private readonly options: ManagedAgentsOptions) {
    const { store, services } = options;
    this.env = childEnv(options.env);
    this.clock = options.clock ?? systemClock;
    this.workspaces = new AgentWorkspaces(options.dataDir);
    // The parts call one another only once the app runs, so they are wired through arrows.
    this.limits = new UsageLimits({
      store,
      clock: this.clock,
      backoffMs: options.rateLimitBackoffMs,
      stopTurns: (agentId) => this.turns.stopTurns(agentId),
      keep: (agentId, triggers) => this.turns.keep(agentId, triggers),
      resumeTurns: (agentId) => this.turns.resumeTurns(agentId),
      notice: (row, text) => this.room.notice(row, text),
      nameOf: async (row) => (await this.get(row.agent_id)).session?.display_name ?? 'The agent',
    });
    this.scheduler = new TurnScheduler({
      maxConcurrent: options.maxConcurrentTurns,
      turnTimeLimitMs: options.turnTimeLimitMs,
      runTurn: (agentId, triggers, signal) => this.turns.run(agentId, triggers, signal),
      onStateChange: (agentId) => options.bus.publish({ type: 'agent.changed', agentId }),
    });
    const { scheduler, workspaces, limits } = this;
    const hooks = () => this.hooks;
    const get = (agentId: string) => this.get(agentId);
    const requireRow = (agentId: string) => this.requireRow(agentId);
    this.room = new RoomMembers({ store, services, scheduler, workspaces });
    const room = this.room;
    this.turns = new AgentTurns({
      store, services, dataDir: options.dataDir, helper: options.helper, env: this.env, home: options.home, reconnectLimitMs: options.reconnectLimitMs,
      clock: this.clock, scheduler, room, workspaces, limits: () => this.limits, hooks,
    });
    this.lifecycle = new AgentLifecycle({
      store, services, env: this.env, endSessionByPerson: (...args) => options.endSessionByPerson(...args),
      scheduler, room, turns: this.turns, limits, workspaces, hooks, get, requireRow,
    });
    this.branches = new AgentBranches({ store, scheduler, workspaces, get, requireRow });
    const stopTriggers = watchTriggers(options.bus, services, {
      agentsIn: async (place, roomId) => {
        await this.trackPending(place);
        return room.in(place, roomId);
      },
      request: (agentId, trigger) => scheduler.request(agentId, trigger),
      keep: (agentId, trigger) => void this.turns.keep(agentId, [trigger]),
      isInTurn: (agentId) => scheduler.state(agentId) === 'running',
      isBusy: (agentId) => scheduler.state(agentId) !== 'idle',
      roomOf: (agentId) => {
        const member = room.members.get(agentId);
        return member ? { place: member.place, roomId: member.roomId } : null;
      },
      takeOwnEvent: (place, roomId, number) => room.takeOwnEvent(place, roomId, number),
      roomDeleted: (place, roomId) => void room.forgetVanished(place, roomId),
    });
    const runsAgentsIn = (place: string, roomId: string) => room.in(place, roomId).length > 0;
    const stopClaims = watchClaims(options.bus, services.places, runsAgentsIn, (place, roomId, agentKey) => room.branchOf(place, roomId, agentKey));
    // A team offline at start: once it can be read, this app says again that it runs its agents
    // there (which also clears an approval wait a crash or the outage left on their rows).
    const stopOnline = options.bus.on('place.online', (event) => {
      void this.ready.then(() => this.trackPending(event.place)).catch((error: unknown) => console.warn(`managed agents: could not rejoin the rooms of ${event.place}:`, error));
    });
    this.stopWatching = () => {
      stopTriggers();
      stopClaims();
      stopOnline();
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
    const reason = await this.turns.noTurnsReason(row);
    if (reason) return reason;
    this.scheduler.request(agentId, trigger);
    return null;
  }

  /** A fresh worktree of the agent's repository for one automation run (`key` names it), or where it works when it gets none. */
  runWorkspace(row: ManagedAgentRow, key: string, name: string): Promise<AgentWorkspace> {
    return this.branches.runWorkspace(row, key, name);
  }

  /** After a run in a fresh worktree: removed with its branch when it holds nothing; otherwise kept, and what it holds is said. */
  endRunWorkspace(key: string, folder: string): Promise<string | null> {
    return this.branches.endRunWorkspace(key, folder);
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
    return this.lifecycle.add(input);
  }

  changes(agentId: string, withDiff: boolean): Promise<AgentChanges> {
    return this.branches.changes(agentId, withDiff);
  }

  merge(agentId: string, person: PersonActor): Promise<MergeResult> {
    return this.branches.merge(agentId, person);
  }

  updateFromBase(agentId: string, person: PersonActor): Promise<UpdateResult> {
    return this.branches.updateFromBase(agentId, person);
  }

  askToRedo(agentId: string, person: PersonActor): Promise<RedoRequest> {
    return this.branches.askToRedo(agentId, person);
  }

  discard(agentId: string): Promise<AgentWorkspace> {
    return this.branches.discard(agentId);
  }

  async pause(agentId: string): Promise<ManagedAgentRecord> {
    await this.lifecycle.pause(agentId);
    return this.get(agentId);
  }

  async resume(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    await this.lifecycle.resume(agentId, person);
    return this.get(agentId);
  }

  async stop(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    await this.lifecycle.stop(agentId, person);
    return this.get(agentId);
  }

  async runNow(agentId: string, person: PersonActor): Promise<ManagedAgentRecord> {
    await this.lifecycle.runNow(agentId, person);
    return this.get(agentId);
  }

  remove(agentId: string, person: PersonActor, discardWork = false): Promise<boolean> {
    return this.lifecycle.remove(agentId, person, discardWork);
  }

  /** The provider process of the agent's running turn (tests check what it was given). */
  runningPid(agentId: string): number | null {
    return this.turns.runningPid(agentId);
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
    for (const row of await this.options.store.read((q) => listManagedAgentRows(q))) this.room.untracked.set(row.agent_id, row);
    await this.trackPending();
  }

  /** Tracks the agents (of `place`, or all) whose room could not be read yet, then gives those turns for what waited. */
  private async trackPending(place?: string): Promise<void> {
    const tracked = await this.room.trackPending(place);
    if (tracked.length === 0) return;
    await this.limits.restore();
    // What waited for a rate limit's retry when the app stopped is tried again now, for the agents
    // just tracked only: this runs on every room event, and an agent tracked before may be waiting
    // out a retry's backoff right now (its kept triggers must wait for it).
    for (const agentId of tracked) if (this.room.members.get(agentId)?.takesTurns) await this.turns.resumeTurns(agentId);
  }

  private recordOf(row: ManagedAgentRow): Promise<ManagedAgentRecord> {
    return recordOf({ store: this.options.store, room: this.room, scheduler: this.scheduler, workspaces: this.workspaces, limits: this.limits }, row);
  }

  private async requireRow(agentId: string): Promise<ManagedAgentRow> {
    await this.ready;
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (!row) throw appErrors.notFound('Managed agent');
    return row;
  }
}
