// The "Needs you" items the app raises about delivery (issue 14), on timers scheduled from
// events (never by polling the store): a message addressed to an agent (a mention of it, a
// reply to it) that no tool returned to it within the limit; a task handed to an agent that
// then calls no tool within the limit; a loop the loop guard paused; a room's daily budget
// used up. What the item waited for resolves it (the message delivered, any tool call). A
// restart re-derives the pending timers from the last day of messages in the store (a team
// offline at the start: when it comes online, PlaceLoads). Every
// read and write runs in the background (Background): close() waits for them. Each room's
// items, reads and writes are in its place (a team room's in the team's database, where
// another app of the team may raise the same item: one item per subject, so only one stands).
import { RoomReceipts } from '../domain/delivery/receipts';
import { closeAlert, openAlerts, raiseAlert, reviseAlert, getAlert } from '../domain/knowledge/alerts';
import { normalizeHandle } from '../domain/identity/handles';
import { BROADCAST_HANDLES, extractMentions } from '../domain/messages/mentions';
import { getMessageRow, pageBefore, summaryOf, type MessageRow } from '../domain/messages/read';
import { getRoom } from '../domain/rooms/rooms';
import { listRooms } from '../domain/rooms/roomList';
import { getSession, listRoomSessions, type SessionRow } from '../domain/sessions/sessions';
import { postSystemEvent } from '../domain/systemEvents';
import { activeWorkLease } from '../domain/tasks/leases';
import type { EventBus } from '../events/bus';
import type { MessageSummary } from '../events/types';
import { routerFor } from '../domain/activation/activation';
import type { RoutingServices } from '../domain/activation/routingContext';
import { placeKey, splitPlaceKey } from '../domain/placeKeys';
import { storageIn, type Places, type PlacedRoom } from '../store/places';
import type { Queryable, Storage } from '../store/port';
import { eventConcernsOf } from '../store/routingQueries';
import { getTaskRow } from '../store/taskQueries';
import { budgetTexts, idleTaskTexts, loopTexts, unansweredTexts } from './alertTexts';
import { timeOf } from '../domain/rowTimes';
import { Background } from './background';
import type { DeliveryServices } from './index';
import { PlaceLoads } from './placeLoads';
import { namesInLoop, type LoopDetail, type LoopPause } from './loopGuard';

/** How far back a restart looks for pending items, and how many messages per room. */
const REDERIVE_MS = 24 * 3_600_000;
const REDERIVE_MESSAGES = 200;

export class DeliveryAlerts {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The open "not picked up" item per room and session (one at a time: later messages wait behind it). */
  private readonly unanswered = new Map<string, { alert: number; message: number }>();
  /** Pending "hasn't started" timers per session key (placeKey: every tool call looks here). */
  private readonly idleTimers = new Map<string, Set<string>>();
  /** Open "hasn't started" items per session key (placeKey). */
  private readonly idle = new Map<string, Array<{ roomId: string; alert: number }>>();
  private readonly offs: Array<() => void>;
  private readonly background = new Background('delivery alerts');
  private readonly loads: PlaceLoads;
  /** Settles once the open items of the places reachable at the start are read back (their timers are set again after). */
  readonly ready: Promise<void>;
  private closed = false;

  constructor(
    private readonly places: Places,
    bus: EventBus,
    private readonly services: RoutingServices & { readonly delivery: DeliveryServices },
  ) {
    const { deliveries, reachability, loopGuard, meter } = services.delivery;
    this.offs = [
      bus.on('message.created', (e) => {
        // Only a room event (a task handed to an agent), a mention or a reply can start a timer.
        if (e.message && !mayStartTimer(e.message)) return;
        this.later(e, e.number);
      }),
      deliveries.onDelivered((d) => this.guard('delivery', () => this.onDelivered(d, d.sessionId, d.first, d.last))),
      // Deliveries by a team's other apps (their receipts' hints) resolve this app's items too.
      bus.on('message.receipts', (e) => {
        if (e.remote) this.guard('delivery', () => this.onDelivered(e, e.sessionId, e.first, e.last));
      }),
      reachability.onCall((sessionKey) => this.guard('call', () => this.onCall(sessionKey))),
      loopGuard.onTrip((room, pause, added) => this.guard('loop', () => this.onLoop(room, pause, added))),
      meter.onBudgetReached((room, day, state) => this.guard('budget', () => this.onBudget(room, day, state.usedTokens, state.budgetTokens!))),
    ];
    this.loads = new PlaceLoads(
      places,
      bus,
      this.background,
      (storage) => this.loadOpen(storage),
      (storage) => this.rederiveIn(storage),
    );
    this.ready = this.loads.ready;
  }

  /** Messages committed since the last turn of the event loop, looked at after the commits' own work (waking waiters, answering the poster). */
  private queued: Array<[PlacedRoom, number]> = [];

  private later(room: PlacedRoom, number: number): void {
    if (this.queued.push([{ place: room.place, roomId: room.roomId }, number]) > 1) return;
    setImmediate(() => {
      const batch = this.queued;
      this.queued = [];
      for (const [room, n] of batch) this.guard('message', () => this.onMessage(room, n));
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.loads.close();
    for (const off of this.offs) off();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.background.settled();
  }

  private get limitMs(): number {
    return this.services.delivery.settings.limits.unansweredAfterMs;
  }

  /** A place's open items (once per place: `idle` gathers them). */
  private async loadOpen(storage: Storage): Promise<void> {
    const place = storage.place;
    const [unanswered, idle] = await storage.read(async (q) => [await openAlerts(q, 'unanswered'), await openAlerts(q, 'idle_task')]);
    for (const a of unanswered) if (a.session_id && a.message_number) this.unanswered.set(sessionRoomKey({ place, roomId: a.room_id }, a.session_id), { alert: a.number, message: a.message_number });
    for (const a of idle) {
      if (!a.session_id) continue;
      const key = placeKey(place, a.session_id);
      this.idle.set(key, [...(this.idle.get(key) ?? []), { roomId: a.room_id, alert: a.number }]);
    }
  }

  /** A committed message: a mention or reply to agents, or a task handed to an agent, starts a timer. */
  private async onMessage(room: PlacedRoom, number: number): Promise<void> {
    await this.ready;
    const storage = await storageIn(this.places, room.place);
    const now = Date.parse(storage.now());
    await storage.read(async (q) => {
      const row = await getMessageRow(q, room.roomId, number);
      if (row) await this.examine(q, room, row, now);
    });
  }

  private async examine(q: Queryable, room: PlacedRoom, row: MessageRow, now: number): Promise<void> {
    const { roomId } = room;
    const number = row.number;
    if (row.source === 'system') {
      for (const concern of await eventConcernsOf(q, roomId, number)) {
        if (concern.role !== 'assignee' || concern.task_number === null || concern.agent_key === row.publisher_agent_key) continue;
        const session = await this.liveSessionOf(q, roomId, concern.agent_key);
        if (!session) continue;
        const task = concern.task_number;
        const sessionKey = placeKey(room.place, session.session_id);
        const key = `i\n${sessionKey}\n${roomId}\n${number}`;
        if (this.schedule(key, timeOf(row.created_at, now), now, () => this.fireIdle(room, session.session_id, task, timeOf(row.created_at, now)))) {
          this.idleTimers.set(sessionKey, (this.idleTimers.get(sessionKey) ?? new Set()).add(key));
        }
      }
      return;
    }
    if (!mayStartTimer(summaryOf(row)!)) return;
    // A broadcast (@all, …) addresses no one agent: it starts no timer.
    const named = new Set(extractMentions(row.text).map(normalizeHandle).filter((h) => !BROADCAST_HANDLES.has(h)));
    const repliedTo = row.reply_to_number === null ? null : ((await getMessageRow(q, roomId, row.reply_to_number))?.publisher_agent_key ?? null);
    if (named.size === 0 && repliedTo === null) return;
    for (const session of await listRoomSessions(q, roomId)) {
      if (!named.has(session.name_key) && session.agent_key !== repliedTo) continue;
      if (session.session_kind !== 'worker' || session.ended_at || session.created_at > row.created_at || session.agent_key === row.publisher_agent_key) continue;
      const { reason } = await (await routerFor(this.services, q, room, session))(row);
      if (reason !== 'explicit_mention' && reason !== 'reply_target') continue;
      this.schedule(`u\n${sessionRoomKey(room, session.session_id)}\n${number}`, timeOf(row.created_at, now), now, () => this.fireUnanswered(room, session.session_id, number));
    }
  }

  /** Sets the timer `key` (once); false when it was not set (already set, or closed). */
  private schedule(key: string, postedAt: number, now: number, fire: () => Promise<void>): boolean {
    if (this.closed || this.timers.has(key)) return false;
    const timer = setTimeout(() => {
      this.timers.delete(key);
      // An idle timer's key starts with its session's key: "i\n<place>\n<session>\n…".
      if (key.startsWith('i\n')) this.idleTimers.get(key.split('\n').slice(1, 3).join('\n'))?.delete(key);
      this.guard('timer', fire);
    }, Math.max(0, postedAt + this.limitMs - now));
    timer.unref?.();
    this.timers.set(key, timer);
    return true;
  }

  private async fireUnanswered(placed: PlacedRoom, sessionId: string, number: number): Promise<void> {
    const { roomId } = placed;
    const key = sessionRoomKey(placed, sessionId);
    const storage = await storageIn(this.places, placed.place);
    const found = await storage.read(async (q) => {
      const session = await getSession(q, sessionId);
      const row = await getMessageRow(q, roomId, number);
      const room = await getRoom(q, roomId);
      if (!session || session.ended_at || !row || !room || room.archived_at || (await this.delivered(q, placed, sessionId, number))) return null;
      const open = this.unanswered.get(key);
      // One open item per agent and room; one a person dismissed or acted on no longer counts.
      if (open && (await getAlert(q, roomId, open.alert))?.status === 'open') return null;
      const sender = row.source === 'human' ? row.sender : ((await listRoomSessions(q, roomId)).find((s) => s.agent_key === row.publisher_agent_key)?.display_name ?? row.sender);
      return { session, row, room, sender };
    });
    if (!found) return;
    const { session, row, room, sender } = found;
    this.unanswered.delete(key);
    const texts = unansweredTexts({ agent: session.display_name, sender, senderIsPerson: row.source === 'human', number, text: row.text, roomName: room.display_name, afterMs: this.limitMs });
    await storage.write(async (tx) => {
      const alert = await raiseAlert(tx, { roomId, kind: 'unanswered', subject: `msg_${number}:${sessionId}`, sessionId, messageNumber: number, title: texts.title, body: texts.body, detail: { prompt: texts.prompt } });
      if (alert !== null) tx.afterCommit(() => this.unanswered.set(key, { alert, message: number }));
    });
  }

  private async fireIdle(placed: PlacedRoom, sessionId: string, taskNumber: number, assignedAt: number): Promise<void> {
    const { roomId } = placed;
    const sessionKey = placeKey(placed.place, sessionId);
    const storage = await storageIn(this.places, placed.place);
    const found = await storage.read(async (q) => {
      const session = await getSession(q, sessionId);
      const task = await getTaskRow(q, roomId, taskNumber);
      const room = await getRoom(q, roomId);
      if (!session || session.ended_at || !task || !room || room.archived_at) return null;
      const lastCall = Math.max(this.services.delivery.reachability.lastCallAt(sessionKey) ?? 0, timeOf(session.last_seen_at, 0));
      if (lastCall > assignedAt || (await activeWorkLease(q, task))?.agent_key !== session.agent_key) return null;
      return { session, task, room };
    });
    if (!found) return;
    const texts = idleTaskTexts({ agent: found.session.display_name, task: taskNumber, title: found.task.title, roomName: found.room.display_name, afterMs: this.limitMs });
    await storage.write(async (tx) => {
      const alert = await raiseAlert(tx, { roomId, kind: 'idle_task', subject: `task_${taskNumber}:${sessionId}:${assignedAt}`, sessionId, taskNumber, title: texts.title, body: texts.body, detail: { prompt: texts.prompt } });
      if (alert !== null) tx.afterCommit(() => this.idle.set(sessionKey, [...(this.idle.get(sessionKey) ?? []), { roomId, alert }]));
    });
  }

  /** Messages reached a session: their timers stop, and its open item resolves once its message arrived. */
  private async onDelivered(room: PlacedRoom, sessionId: string, first: number, last: number): Promise<void> {
    const key = sessionRoomKey(room, sessionId);
    const prefix = `u\n${key}\n`;
    for (const timer of [...this.timers.keys()]) {
      const n = timer.startsWith(prefix) ? Number(timer.slice(prefix.length)) : NaN;
      if (n >= first && n <= last) this.cancel(timer);
    }
    await this.ready;
    const open = this.unanswered.get(key);
    if (!open || open.message < first || open.message > last) return;
    this.unanswered.delete(key);
    await this.resolve(room, open.alert);
  }

  /** Any tool call (of the session `sessionKey`, placeKey): its untouched tasks are touched. */
  private async onCall(sessionKey: string): Promise<void> {
    for (const key of this.idleTimers.get(sessionKey) ?? []) this.cancel(key);
    this.idleTimers.delete(sessionKey);
    await this.ready;
    const open = this.idle.get(sessionKey);
    if (!open) return;
    this.idle.delete(sessionKey);
    const { place } = splitPlaceKey(sessionKey);
    for (const item of open) await this.resolve({ place, roomId: item.roomId }, item.alert);
  }

  private async onLoop(placed: PlacedRoom, pause: LoopPause, added: readonly string[]): Promise<void> {
    const { roomId } = placed;
    const storage = await storageIn(this.places, placed.place);
    const sessions = await storage.read((q) => listRoomSessions(q, roomId));
    const names = namesInLoop(sessions, pause);
    const windowMs = this.services.delivery.settings.limits.loopWindowMs;
    const texts = loopTexts({ agents: names, count: pause.count, windowMs });
    const detail: LoopDetail = { keys: [...pause.keys], fromNumber: pause.fromNumber, count: pause.count };
    await storage.write(async (tx) => {
      const existing = pause.alertNumber === null ? undefined : await getAlert(tx, roomId, pause.alertNumber);
      if (existing && existing.status === 'open') {
        await reviseAlert(tx, existing, texts.body, detail);
        return;
      }
      await postSystemEvent(tx, roomId, texts.event, null);
      const alert = await raiseAlert(tx, { roomId, kind: 'loop', subject: `loop_from_msg_${pause.fromNumber}:${added.join(',')}`, title: texts.title, body: texts.body, detail });
      tx.afterCommit(() => (pause.alertNumber = alert));
    });
  }

  private async onBudget(placed: PlacedRoom, day: string, used: number, budget: number): Promise<void> {
    const { roomId } = placed;
    const storage = await storageIn(this.places, placed.place);
    const room = await storage.read((q) => getRoom(q, roomId));
    if (!room) return;
    const texts = budgetTexts({ roomName: room.display_name, used, budget });
    await storage.write(async (tx) => {
      for (const old of await openAlerts(tx, 'room_budget', roomId)) await closeAlert(tx, roomId, old.number, 'resolved');
      await raiseAlert(tx, { roomId, kind: 'room_budget', subject: `day:${day}`, title: texts.title, body: texts.body, detail: { day, budget } });
    });
  }

  /** After a restart (or a team's coming online): the place's last day of messages start (or fire) their timers again. */
  private async rederiveIn(storage: Storage): Promise<void> {
    const now = Date.parse(storage.now());
    const rooms = await storage.read((q) => listRooms(q));
    for (const room of rooms) {
      if (this.closed) return;
      if (room.archived || room.latestMessageNumber === 0) continue;
      const placed = { place: storage.place, roomId: room.roomId };
      await storage.read(async (q) => {
        for (const row of await pageBefore(q, room.roomId, room.latestMessageNumber + 1, REDERIVE_MESSAGES)) {
          if (timeOf(row.created_at, 0) >= now - REDERIVE_MS) await this.examine(q, placed, row, now);
        }
      });
    }
  }

  private async delivered(q: Queryable, room: PlacedRoom, sessionId: string, number: number): Promise<boolean> {
    return (
      this.services.delivery.deliveries.pendingCovers(room, sessionId, number) ||
      (await RoomReceipts.load(q, room.roomId, number, number)).of(sessionId, number) !== null
    );
  }

  private async resolve(room: PlacedRoom, alert: number): Promise<void> {
    await (await storageIn(this.places, room.place)).write((tx) => closeAlert(tx, room.roomId, alert, 'resolved'));
  }

  private cancel(key: string): void {
    const timer = this.timers.get(key);
    if (!timer) return;
    clearTimeout(timer);
    this.timers.delete(key);
  }

  private async liveSessionOf(q: Queryable, roomId: string, agentKey: string): Promise<SessionRow | undefined> {
    return (await listRoomSessions(q, roomId)).find((s) => s.agent_key === agentKey && s.session_kind === 'worker' && !s.ended_at);
  }

  /** Runs a handler in the background unless closed; its failure is logged. */
  private guard(what: string, fn: () => Promise<void>): void {
    if (this.closed) return;
    this.background.run(what, fn);
  }
}

/** A session in a room of a place, as one key. */
const sessionRoomKey = (room: PlacedRoom, sessionId: string) => `${placeKey(room.place, room.roomId)}\n${sessionId}`;

/**
 * Whether a message can start a timer: a room event (a task handed to an agent), or an
 * agent's or person's chat message that mentions someone or replies to someone. Only those
 * can address one agent, so only those agents are routed (a broadcast to fifty agents costs
 * no routing here).
 */
function mayStartTimer(m: Pick<MessageSummary, 'source' | 'kind' | 'replyToNumber' | 'text'>): boolean {
  return m.source === 'system' || (m.kind === 'message' && (m.replyToNumber !== null || m.text.includes('@')));
}
