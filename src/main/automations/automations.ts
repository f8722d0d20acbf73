// The automations service (issue 36): automations belong to this computer (its database), also
// for a team's room, since the agents and the schedule run here; they run while the app runs.
// It keeps them (add, edit, pause, resume, run now, remove), starts their runs when their
// schedule is due (one timer for all: scheduler.ts), when something happens in their room
// (roomEvents.ts) or on a linked pull request (githubEvents.ts), and records what became of each
// run (runs.ts). Missed scheduled runs are counted and shown, with at most one catch-up.
import { randomBytes } from 'node:crypto';
import type { AutomationEdit, AutomationInput, AutomationTrigger, RunLimits } from '../../shared/model/automations';
import { GITHUB_TRIGGERS, missedText } from '../../shared/automationWords';
import type { Clock } from '../agents/clock';
import type { ManagedAgents } from '../agents/managedAgents';
import { timeText } from '../agents/timeText';
import type { GitHubData } from '../auth/githubData';
import type { PersonActor } from '../domain/actor';
import { appErrors } from '../domain/errors';
import { closeAlert, openAlerts } from '../domain/knowledge/alerts';
import { getRoom } from '../domain/rooms/rooms';
import type { EventBus } from '../events/bus';
import {
  countAutomationRows, deleteAutomationRow, getAutomationRow, insertAutomationRow, listAutomationRows, listOpenRunRows, listRunRows, openRunRow,
  runTurnNumbers, updateAutomationRow, type AutomationRow, type RunRow,
} from '../store/automationQueries';
import { getManagedAgentRow } from '../store/managedAgentQueries';
import { LOCAL_PLACE, storageIn, type Places } from '../store/places';
import type { Storage } from '../store/port';
import { checkAutomation, type CheckedAutomation } from './automationConfig';
import { GitHubTriggers } from './githubEvents';
import { watchRoomEvents } from './roomEvents';
import { AutomationRuns, parseLimits, parseTarget, type RunStart } from './runs';
import type { ScheduleTrigger } from './schedule';
import { AutomationScheduler, type Due } from './scheduler';

/** Automations one app keeps (a bound on every list). */
export const MAX_AUTOMATIONS = 500;

export interface AutomationsOptions {
  /** This computer's storage: automations live here. */
  readonly store: Storage;
  readonly places: Places;
  readonly bus: EventBus;
  readonly agents: ManagedAgents;
  readonly clock: Clock;
  readonly github: Pick<GitHubData, 'pullRequestState'>;
  /** Whether the person is signed in to GitHub (the GitHub triggers need it). */
  githubSignedIn(): Promise<boolean>;
  /** The person in a place: who a mention run posts as. */
  person(place: string): Promise<PersonActor>;
}

/** An automation with what the view and `automation list` show about it. */
export interface AutomationRecord {
  readonly row: AutomationRow;
  readonly trigger: AutomationTrigger;
  readonly limits: RunLimits;
  readonly roomName: string;
  /** The target agent's name in its room now; null for a mention, or an agent that was removed. */
  readonly agentName: string | null;
  readonly nextRunAt: string | null;
  readonly lastRun: { run: RunRow; turns: number[] } | null;
  readonly running: boolean;
  readonly notice: string | null;
}

export class Automations {
  private readonly rows = new Map<string, AutomationRow>();
  private readonly scheduler: AutomationScheduler;
  private readonly runs: AutomationRuns;
  private readonly github: GitHubTriggers;
  private readonly stopEvents: () => void;
  readonly ready: Promise<void>;

  constructor(private readonly options: AutomationsOptions) {
    const { clock } = options;
    this.scheduler = new AutomationScheduler({ clock, onDue: (id, due) => void this.onDue(id, due).catch(logFailure(id)) });
    this.runs = new AutomationRuns({ store: options.store, places: options.places, agents: options.agents, clock, person: options.person, automation: (id) => this.rows.get(id) });
    options.agents.useAutomationHooks(this.runs);
    this.github = new GitHubTriggers({
      places: options.places,
      github: options.github,
      signedIn: options.githubSignedIn,
      clock,
      target: {
        automations: () => this.active().filter((a) => GITHUB_TRIGGERS.has(a.trigger.type)),
        fire: (row, causeText) => this.fire(row, { cause: 'event', causeText }),
        saveSeen: (id, seen) => this.update(id, { seen_json: seen }, false),
      },
    });
    // A deleted room takes its automations with it.
    const offDeleted = options.bus.on('room.changed', (e) => {
      if (e.change !== 'deleted') return;
      for (const row of [...this.rows.values()]) {
        if (row.place === e.place && row.room_id === e.roomId) void this.remove(row.automation_id).catch(logFailure(row.automation_id));
      }
    });
    const stopRoomEvents = watchRoomEvents(options.bus, options.places, {
      automationsIn: (place, roomId, types) => this.active().filter((a) => a.row.place === place && a.row.room_id === roomId && (types as readonly string[]).includes(a.trigger.type)),
      fire: (row, causeText) => this.fire(row, { cause: 'event', causeText }),
    }, () => new Date(clock.now()).toISOString());
    this.stopEvents = () => {
      offDeleted();
      stopRoomEvents();
    };
    // A start-up that cannot read the store leaves automations idle, never the app down.
    this.ready = this.load().catch((error: unknown) => console.error('automations: could not load:', error));
  }

  async list(): Promise<AutomationRecord[]> {
    await this.ready;
    const signedIn = await this.options.githubSignedIn().catch(() => false);
    const out: AutomationRecord[] = [];
    for (const row of this.rows.values()) out.push(await this.recordOf(row, signedIn));
    return out;
  }

  async get(automationId: string): Promise<AutomationRecord> {
    return this.recordOf(await this.require(automationId), await this.options.githubSignedIn().catch(() => false));
  }

  async add(input: AutomationInput): Promise<AutomationRecord> {
    await this.ready;
    if ((await this.options.store.read((q) => countAutomationRows(q))) >= MAX_AUTOMATIONS) {
      throw appErrors.invalidInput(`This computer keeps at most ${MAX_AUTOMATIONS} automations; delete one first.`);
    }
    const checked = await checkAutomation(this.options.places, this.options.agents, input, this.options.clock.now());
    const id = `auto_${randomBytes(12).toString('hex')}`;
    const now = this.nowIso();
    await this.options.store.write(async (tx) => {
      await insertAutomationRow(tx, { automation_id: id, ...fieldsOf(checked), place: checked.place, room_id: checked.roomId, desired_state: 'active', anchor_at: now, created_at: now });
      tx.emit({ type: 'automation.changed', automationId: id });
    });
    await this.reload(id);
    return this.get(id);
  }

  /** Changes what is given; a new trigger counts from now (nothing missed before it). */
  async edit(edit: AutomationEdit): Promise<AutomationRecord> {
    const row = await this.require(edit.automationId);
    const current = parseLimits(row);
    const input: AutomationInput = {
      name: edit.name ?? row.name,
      roomId: row.room_id,
      place: row.place,
      target: edit.target ?? parseTarget(row),
      instructions: edit.instructions ?? row.instructions,
      trigger: edit.trigger ?? triggerOf(row),
      limits: edit.limits ?? current,
    };
    const checked = await checkAutomation(this.options.places, this.options.agents, input, this.options.clock.now());
    const now = this.nowIso();
    const newTrigger = JSON.stringify(checked.trigger) !== row.trigger_json;
    await this.update(row.automation_id, { ...fieldsOf(checked), ...(newTrigger ? { anchor_at: now, last_due_at: now, missed_count: 0, missed_last_at: null, seen_json: null } : {}) });
    return this.get(row.automation_id);
  }

  /** No new runs (a run going on finishes); scheduled times while paused are not missed. */
  async pause(automationId: string): Promise<AutomationRecord> {
    await this.require(automationId);
    await this.update(automationId, { desired_state: 'paused' });
    return this.get(automationId);
  }

  async resume(automationId: string): Promise<AutomationRecord> {
    const row = await this.require(automationId);
    if (row.desired_state !== 'active') await this.update(automationId, { desired_state: 'active', last_due_at: this.nowIso(), missed_count: 0, missed_last_at: null });
    return this.get(automationId);
  }

  /** A run now (also while paused); recorded as skipped when one is still going or its agent takes no turns. */
  async runNow(automationId: string, person: PersonActor): Promise<AutomationRecord> {
    const row = await this.require(automationId);
    await this.runs.start(row, { cause: 'run_now', causeText: `Run now by ${person.label}` });
    return this.get(automationId);
  }

  /** Deletes it with its runs; a run going on ends (its agent's turn, once started, finishes). */
  async remove(automationId: string): Promise<boolean> {
    const row = await this.require(automationId);
    const open = await this.options.store.read((q) => openRunRow(q, automationId));
    if (open) await this.runs.finish(automationId, open.number, 'stopped', 'the automation was deleted');
    this.rows.delete(automationId);
    this.scheduler.remove(automationId);
    this.github.update();
    return this.options.store.write(async (tx) => {
      if (row.place === LOCAL_PLACE) {
        for (const alert of await openAlerts(tx, 'automation', row.room_id)) {
          if (alert.subject.startsWith(`${automationId}:`)) await closeAlert(tx, row.room_id, alert.number, 'resolved');
        }
      }
      const removed = await deleteAutomationRow(tx, automationId);
      tx.emit({ type: 'automation.changed', automationId });
      return removed;
    });
  }

  /** Its newest runs, newest first, with the turns each took. */
  async runsOf(automationId: string, limit: number): Promise<Array<{ run: RunRow; turns: number[] }>> {
    await this.require(automationId);
    const runs = await this.options.store.read((q) => listRunRows(q, automationId, limit));
    return Promise.all(runs.map(async (run) => ({ run, turns: await this.options.store.read((q) => runTurnNumbers(q, automationId, run.number)) })));
  }

  /** Whether an active automation needs the app running (its schedule, its events). */
  async needsApp(): Promise<boolean> {
    await this.ready;
    return this.active().length > 0;
  }

  /** The computer woke, or its clock changed: due schedules are looked at now. */
  recheck(): void {
    this.scheduler.recheck();
  }

  /** How many times the scheduler's timer fired (the benchmark). */
  get wakeups(): number {
    return this.scheduler.wakeups;
  }

  async close(): Promise<void> {
    this.stopEvents();
    await this.ready;
    this.scheduler.close();
    this.github.close();
  }

  private async load(): Promise<void> {
    for (const row of await this.options.store.read((q) => listAutomationRows(q))) this.rows.set(row.automation_id, row);
    await this.runs.restore(await this.options.store.read((q) => listOpenRunRows(q)));
    for (const row of this.rows.values()) this.schedule(row);
    this.github.update();
  }

  private active(): Array<{ row: AutomationRow; trigger: AutomationTrigger }> {
    return [...this.rows.values()].filter((row) => row.desired_state === 'active').map((row) => ({ row, trigger: triggerOf(row) }));
  }

  private schedule(row: AutomationRow): void {
    const trigger = triggerOf(row);
    if (row.desired_state !== 'active' || trigger.type !== 'schedule') return this.scheduler.remove(row.automation_id);
    try {
      this.scheduler.set({ id: row.automation_id, trigger, anchorMs: Date.parse(row.anchor_at), lastDueMs: row.last_due_at === null ? null : Date.parse(row.last_due_at) });
    } catch (error) {
      // Stored before this version read it differently: shown on its card, never the app down.
      console.error(`automation ${row.automation_id}: its schedule cannot be read:`, error);
      this.scheduler.remove(row.automation_id);
    }
  }

  private fire(row: AutomationRow, start: RunStart): void {
    void this.runs.start(this.rows.get(row.automation_id) ?? row, start).catch(logFailure(row.automation_id));
  }

  /** A scheduled time passed: missed runs are recorded, and it runs on time or catches up once. */
  private async onDue(automationId: string, due: Due): Promise<void> {
    const row = this.rows.get(automationId);
    if (!row || row.desired_state !== 'active') return;
    const now = this.options.clock.now();
    const at = (ms: number) => timeText(ms, now, (triggerOf(row) as ScheduleTrigger).timeZone);
    if (due.missed) {
      const reason = missedText(due.missed.count, at(due.missed.lastAt), due.missed.capped);
      await this.runs.record(row, { cause: 'schedule', causeText: reason }, new Date(due.missed.lastAt).toISOString(), 'missed', reason, due.missed.count);
    }
    await this.update(
      automationId,
      due.missed
        ? { last_due_at: new Date(due.dueAt).toISOString(), missed_count: due.missed.count, missed_last_at: new Date(due.missed.lastAt).toISOString() }
        : { last_due_at: new Date(due.dueAt).toISOString(), ...(due.run === 'schedule' ? { missed_count: 0, missed_last_at: null } : {}) },
      false,
    );
    if (due.run === 'schedule') this.fire(row, { cause: 'schedule', causeText: `Scheduled for ${at(due.dueAt)}`, dueAt: due.dueAt });
    if (due.run === 'catch_up') this.fire(row, { cause: 'catch_up', causeText: `Catch-up for the run due at ${at(due.dueAt)}, missed while the app was closed or the computer asleep`, dueAt: due.dueAt });
  }

  /** Writes fields, re-reads the row, and (unless only bookkeeping changed) re-schedules it. */
  private async update(automationId: string, fields: Parameters<typeof updateAutomationRow>[2], reschedule = true): Promise<void> {
    await this.options.store.write(async (tx) => {
      await updateAutomationRow(tx, automationId, fields);
      tx.emit({ type: 'automation.changed', automationId });
    });
    if (reschedule) await this.reload(automationId);
    else {
      const row = await this.options.store.read((q) => getAutomationRow(q, automationId));
      if (row) this.rows.set(automationId, row);
    }
  }

  private async reload(automationId: string): Promise<void> {
    const row = await this.options.store.read((q) => getAutomationRow(q, automationId));
    if (!row) return;
    this.rows.set(automationId, row);
    this.schedule(row);
    this.github.update();
  }

  private async require(automationId: string): Promise<AutomationRow> {
    await this.ready;
    const row = this.rows.get(automationId);
    if (!row) throw appErrors.notFound('Automation');
    return row;
  }

  private nowIso(): string {
    return new Date(this.options.clock.now()).toISOString();
  }

  private async recordOf(row: AutomationRow, githubSignedIn: boolean): Promise<AutomationRecord> {
    const { store } = this.options;
    const trigger = triggerOf(row);
    const room = await (await storageIn(this.options.places, row.place)).read((q) => getRoom(q, row.room_id)).catch(() => null);
    const agent = row.agent_id ? await store.read((q) => getManagedAgentRow(q, row.agent_id!)) : undefined;
    const agentName = agent ? ((await this.options.agents.get(agent.agent_id)).session?.display_name ?? null) : null;
    const [last] = await store.read((q) => listRunRows(q, row.automation_id, 1));
    const open = await store.read((q) => openRunRow(q, row.automation_id));
    const next = this.scheduler.nextRunAt(row.automation_id);
    const notice =
      row.target_kind === 'agent' && !agent
        ? 'Its agent was removed: it does nothing. Edit it for another agent, or delete it.'
        : GITHUB_TRIGGERS.has(trigger.type) && !githubSignedIn
          ? 'Not signed in to GitHub: it does nothing until you sign in (the pull requests are read with your sign-in).'
          : null;
    return {
      row,
      trigger,
      limits: parseLimits(row),
      roomName: room?.display_name ?? row.room_id,
      agentName,
      nextRunAt: row.desired_state === 'active' && next !== null ? new Date(next).toISOString() : null,
      lastRun: last ? { run: last, turns: await store.read((q) => runTurnNumbers(q, row.automation_id, last.number)) } : null,
      running: open !== undefined,
      notice,
    };
  }
}

export function triggerOf(row: AutomationRow): AutomationTrigger {
  return JSON.parse(row.trigger_json) as AutomationTrigger;
}

function fieldsOf(checked: CheckedAutomation) {
  return {
    name: checked.name,
    target_kind: checked.target.kind,
    agent_id: checked.target.kind === 'agent' ? checked.target.agentId : null,
    mention: checked.target.kind === 'mention' ? checked.target.handle : null,
    instructions: checked.instructions,
    trigger_json: JSON.stringify(checked.trigger),
    limits_json: JSON.stringify(checked.limits),
  };
}

const logFailure = (automationId: string) => (error: unknown) => console.error(`automation ${automationId}: a run could not start:`, error);
