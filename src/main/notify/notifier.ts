// Watches for what newly needs the person (issue 37) and tells their own notification target:
// a tool approval, a blocked task, an agent that can't run, a mention or question ("action
// needed"), and when asked for, a managed agent's finished turn. Each kind can be switched off;
// a room can be muted, set to mentions only, or snoozed, and so can everything. What was already
// waiting when the app started is not sent again. The message text goes along only if allowed.
import type { AppEvent } from '../../shared/events';
import type { ManagedAgent } from '../../shared/model/managedAgents';
import type { NeedsYouItem, NeedsYouReason } from '../../shared/model/needsYou';
import { needsYouKey, waitsForPerson } from '../../shared/model/needsYou';
import type { NotifyKind } from '../../shared/model/notifications';
import type { NotifyPrefs, NotifySettings } from './notifySettings';
import { sendNotification, type NotificationPayload } from './sendNotification';

/** More new items than this at once become one summary. */
export const MAX_AT_ONCE = 5;
const TEXT_CHARS = 500;
/** Events after which the queue or the agents may have changed; checks are gathered this long. */
const GATHER_MS = 150;
const REFRESHING = new Set<AppEvent['type']>(['needsYou.changed', 'message.created', 'task.changed', 'agent.changed', 'room.changed']);

const KIND_OF: Partial<Readonly<Record<NeedsYouReason, NotifyKind>>> = {
  tool_approval: 'approval',
  approval: 'approval',
  decision: 'approval',
  task_blocked: 'blocked_task',
  agent_cant_run: 'cant_run',
  mention: 'mention',
  question: 'mention',
  review: 'mention',
};

/** Where an item or a room opens on the paired phone; null while the phone listener is off. */
export interface PhoneLinks {
  item(item: NeedsYouItem): string | null;
  agents(): string | null;
}

export interface NotifierDeps {
  readonly settings: NotifySettings;
  listNeedsYou(): Promise<NeedsYouItem[]>;
  listAgents(): Promise<ManagedAgent[]>;
  subscribe(listener: (event: AppEvent) => void): () => void;
  readonly links: PhoneLinks;
  readonly fetch?: typeof fetch;
  /** A send failed (logged at most once a minute by default). */
  onProblem?(message: string): void;
}

const itemKey = (item: NeedsYouItem) => needsYouKey(item.ref);

export class Notifier {
  private readonly seen = new Set<string>();
  private readonly turnsSeen = new Map<string, number>();
  private stop: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private lastProblemAt = 0;

  constructor(private readonly deps: NotifierDeps) {}

  /** Notes what waits already (it is not news), then listens. */
  async start(): Promise<void> {
    await this.look(false);
    this.stop = this.deps.subscribe((event) => {
      if (REFRESHING.has(event.type)) this.soon();
    });
  }

  /** Resolves once every check asked for so far has run (and its notifications went out). */
  settled(): Promise<void> {
    return this.running;
  }

  async close(): Promise<void> {
    this.stop?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.running.then(() => this.look(true)).catch((error: unknown) => this.problem(`could not check what needs you: ${(error as Error).message}`));
    }, GATHER_MS);
    this.timer.unref();
  }

  private async look(send: boolean): Promise<void> {
    const items = (await this.deps.listNeedsYou()).filter(waitsForPerson);
    const fresh = items.filter((item) => !this.seen.has(itemKey(item)));
    for (const item of fresh) this.seen.add(itemKey(item));
    const agents = await this.deps.listAgents();
    const finished = agents.filter((agent) => {
      const turn = agent.lastTurn;
      if (!turn || turn.endedAt === null) return false;
      const known = this.turnsSeen.get(agent.agentId);
      this.turnsSeen.set(agent.agentId, turn.number);
      return known !== undefined ? turn.number > known : false;
    });
    if (!send || (fresh.length === 0 && finished.length === 0)) return;
    const prefs = await this.deps.settings.prefs();
    if (prefs.snoozedUntil !== null) return;
    const payloads = [
      ...[...fresh].reverse().flatMap((item) => this.forItem(item, prefs)),
      ...finished.flatMap((agent) => this.forTurn(agent, prefs)),
    ];
    if (payloads.length === 0) return;
    const target = await this.deps.settings.target();
    if (!target) return;
    const sending = payloads.length > MAX_AT_ONCE ? [summary(payloads, this.deps.links.agents())] : payloads;
    for (const payload of sending) {
      await sendNotification(target, payload, this.deps.fetch).catch((error: unknown) => this.problem(`a notification was not sent: ${(error as Error).message}`));
    }
  }

  private forItem(item: NeedsYouItem, prefs: NotifyPrefs): NotificationPayload[] {
    const kind = KIND_OF[item.reason];
    if (!kind || !allowed(kind, item.ref.place ?? 'local', item.ref.roomId, prefs)) return [];
    const room = item.roomName;
    const title: Readonly<Record<NotifyKind, string>> = {
      approval: `Approval needed: ${item.from} in ${room}`,
      blocked_task: `Blocked task: ${item.from} in ${room}`,
      cant_run: `${item.from} can't run (${room})`,
      mention: `${item.from} ${item.reason === 'mention' ? 'mentioned you' : 'asks you'} in ${room}`,
      turn_finished: '',
    };
    const message = item.approval ? [item.title, item.approval.summary].filter(Boolean).join(': ') : [item.title, item.body].filter(Boolean).join('\n');
    return [{
      kind,
      agent: item.from,
      room,
      roomId: item.ref.roomId,
      place: item.ref.place ?? 'local',
      title: title[kind],
      text: prefs.includeText ? cut(message) : null,
      link: this.deps.links.item(item),
    }];
  }

  private forTurn(agent: ManagedAgent, prefs: NotifyPrefs): NotificationPayload[] {
    if (!allowed('turn_finished', 'local', agent.roomId, prefs)) return [];
    const status = agent.lastTurn!.status;
    return [{
      kind: 'turn_finished',
      agent: agent.name,
      room: agent.roomName,
      roomId: agent.roomId,
      place: 'local',
      title: `${agent.name} finished a turn in ${agent.roomName} (${status.replace('_', ' ')})`,
      text: null,
      link: this.deps.links.agents(),
    }];
  }

  private problem(message: string): void {
    if (this.deps.onProblem) return this.deps.onProblem(message);
    if (Date.now() - this.lastProblemAt < 60_000) return;
    this.lastProblemAt = Date.now();
    console.warn(`notifications: ${message}`);
  }
}

/** The kind is on, the room is not muted (mentions-only lets mentions through), nothing is snoozed. */
function allowed(kind: NotifyKind, place: string, roomId: string, prefs: NotifyPrefs): boolean {
  if (!prefs.kinds[kind]) return false;
  const room = prefs.room(place, roomId);
  if (room.snoozedUntil !== null || room.level === 'muted') return false;
  return room.level === 'all' || kind === 'mention';
}

function summary(payloads: NotificationPayload[], link: string | null): NotificationPayload {
  const names = (values: string[]) => [...new Set(values)].join(', ');
  return {
    ...payloads[0],
    agent: names(payloads.map((p) => p.agent)),
    room: names(payloads.map((p) => p.room)),
    title: `${payloads.length} new things need you`,
    text: null,
    link,
  };
}

function cut(text: string): string {
  const chars = Array.from(text.trim());
  return chars.length <= TEXT_CHARS ? chars.join('') : `${chars.slice(0, TEXT_CHARS - 1).join('')}…`;
}
