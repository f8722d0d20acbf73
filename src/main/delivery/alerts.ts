// The "Needs you" items the app raises about delivery (issue 14), on timers scheduled from
// events (never by polling the store): a message addressed to an agent (a mention of it, a
// reply to it) that no tool returned to it within the limit; a task handed to an agent that
// then calls no tool within the limit; a loop the loop guard paused; a room's daily budget
// used up. What the item waited for resolves it (the message delivered, any tool call). A
// restart re-derives the pending timers from the last day of messages in the store.
import { RoomReceipts } from '../domain/delivery/receipts';
import { closeAlert, openAlerts, raiseAlert, reviseAlert, getAlert } from '../domain/knowledge/alerts';
import { normalizeHandle } from '../domain/identity/handles';
import { extractMentions } from '../domain/messages/mentions';
import { getMessageRow, pageBefore } from '../domain/messages/read';
import { getRoom } from '../domain/rooms/rooms';
import { listRooms } from '../domain/rooms/roomList';
import { getSession, listRoomSessions, type SessionRow } from '../domain/sessions/sessions';
import { postSystemEvent } from '../domain/systemEvents';
import { activeWorkLease } from '../domain/tasks/leases';
import type { EventBus } from '../events/bus';
import { activationFor } from '../mcp/activation';
import { BROADCASTS } from '../mcp/routing';
import type { McpServices } from '../mcp/services';
import { eventConcernsOf } from '../store/routingQueries';
import type { Store } from '../store/store';
import { getTaskRow } from '../store/taskQueries';
import { budgetTexts, idleTaskTexts, loopTexts, unansweredTexts } from './alertTexts';
import type { LoopDetail, LoopPause } from './loopGuard';

/** How far back a restart looks for pending items, and how many messages per room. */
const REDERIVE_MS = 24 * 3_600_000;
const REDERIVE_MESSAGES = 200;

export class DeliveryAlerts {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The open "not picked up" item per room and session (one at a time: later messages wait behind it). */
  private readonly unanswered = new Map<string, { alert: number; message: number }>();
  /** Pending "hasn't started" timers per session (every tool call looks here). */
  private readonly idleTimers = new Map<string, Set<string>>();
  /** Open "hasn't started" items per session. */
  private readonly idle = new Map<string, Array<{ roomId: string; alert: number }>>();
  private readonly offs: Array<() => void>;
  private closed = false;

  constructor(
    private readonly store: Store,
    bus: EventBus,
    private readonly services: McpServices,
  ) {
    const { deliveries, reachability, loopGuard, meter } = services.delivery;
    for (const a of openAlerts(store.db, 'unanswered')) if (a.session_id && a.message_number) this.unanswered.set(`${a.room_id}\n${a.session_id}`, { alert: a.number, message: a.message_number });
    for (const a of openAlerts(store.db, 'idle_task')) if (a.session_id) this.idle.set(a.session_id, [...(this.idle.get(a.session_id) ?? []), { roomId: a.room_id, alert: a.number }]);
    this.offs = [
      bus.on('message.created', (e) => {
        // Only a room event (a task handed to an agent), a mention or a reply can start a timer.
        const m = e.message;
        if (m && m.source !== 'system' && (m.kind !== 'message' || (m.replyToNumber === null && !m.text.includes('@')))) return;
        this.later(e.roomId, e.number);
      }),
      deliveries.onDelivered((d) => this.guard('delivery', () => this.onDelivered(d.roomId, d.sessionId, d.first, d.last))),
      reachability.onCall((sessionId) => this.guard('call', () => this.onCall(sessionId))),
      loopGuard.onTrip((roomId, pause, added) => this.guard('loop', () => this.onLoop(roomId, pause, added))),
      meter.onBudgetReached((roomId, day, state) => this.guard('budget', () => this.onBudget(roomId, day, state.usedTokens, state.budgetTokens!))),
    ];
    this.guard('restart', () => this.rederive());
  }

  /** Messages committed since the last turn of the event loop, looked at after the commits' own work (waking waiters, answering the poster). */
  private queued: Array<[string, number]> = [];

  private later(roomId: string, number: number): void {
    if (this.queued.push([roomId, number]) > 1) return;
    setImmediate(() => {
      const batch = this.queued;
      this.queued = [];
      for (const [room, n] of batch) this.guard('message', () => this.onMessage(room, n));
    });
  }

  close(): void {
    this.closed = true;
    for (const off of this.offs) off();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private get limitMs(): number {
    return this.services.delivery.settings.limits.unansweredAfterMs;
  }

  /** A committed message: a mention or reply to agents, or a task handed to one, starts a timer. */
  private onMessage(roomId: string, number: number, now = Date.parse(this.store.now())): void {
    const row = getMessageRow(this.store.db, roomId, number);
    if (!row) return;
    if (row.source === 'system') {
      for (const concern of eventConcernsOf(this.store.db, roomId, number)) {
        if (concern.role !== 'assignee' || concern.task_number === null || concern.agent_key === row.publisher_agent_key) continue;
        const session = this.liveSessionOf(roomId, concern.agent_key);
        if (!session) continue;
        const task = concern.task_number;
        const key = `i\n${roomId}\n${session.session_id}\n${number}`;
        this.idleTimers.set(session.session_id, (this.idleTimers.get(session.session_id) ?? new Set()).add(key));
        this.schedule(key, Date.parse(row.created_at), now, () => this.fireIdle(roomId, session.session_id, task, Date.parse(row.created_at)));
      }
      return;
    }
    // Only a mention of an agent or a reply to it can address it: route only those agents
    // (a broadcast to fifty agents costs no routing here).
    if (row.kind !== 'message' || (row.reply_to_number === null && !row.text.includes('@'))) return;
    // A broadcast (@all, …) addresses no one agent: it starts no timer.
    const named = new Set(extractMentions(row.text).map(normalizeHandle).filter((h) => !BROADCASTS.has(h)));
    const repliedTo = row.reply_to_number === null ? null : (getMessageRow(this.store.db, roomId, row.reply_to_number)?.publisher_agent_key ?? null);
    if (named.size === 0 && repliedTo === null) return;
    for (const session of listRoomSessions(this.store.db, roomId)) {
      if (!named.has(session.name_key) && session.agent_key !== repliedTo) continue;
      if (session.session_kind !== 'worker' || session.ended_at || session.created_at > row.created_at || session.agent_key === row.publisher_agent_key) continue;
      const { reason } = activationFor(this.services, roomId, session, row);
      if (reason !== 'explicit_mention' && reason !== 'reply_target') continue;
      this.schedule(`u\n${roomId}\n${session.session_id}\n${number}`, Date.parse(row.created_at), now, () => this.fireUnanswered(roomId, session.session_id, number));
    }
  }

  private schedule(key: string, postedAt: number, now: number, fire: () => void): void {
    if (this.closed || this.timers.has(key)) return;
    const timer = setTimeout(() => {
      this.timers.delete(key);
      if (key.startsWith('i\n')) this.idleTimers.get(key.split('\n')[2])?.delete(key);
      this.guard('timer', fire);
    }, Math.max(0, postedAt + this.limitMs - now));
    timer.unref?.();
    this.timers.set(key, timer);
  }

  private fireUnanswered(roomId: string, sessionId: string, number: number): void {
    const db = this.store.db;
    const session = getSession(db, sessionId);
    const row = getMessageRow(db, roomId, number);
    const room = getRoom(db, roomId);
    if (!session || session.ended_at || !row || !room || room.archived_at || this.delivered(roomId, sessionId, number)) return;
    const key = `${roomId}\n${sessionId}`;
    const open = this.unanswered.get(key);
    // One open item per agent and room; one a person dismissed or acted on no longer counts.
    if (open && getAlert(db, roomId, open.alert)?.status === 'open') return;
    this.unanswered.delete(key);
    const sender = row.source === 'human' ? row.sender : (listRoomSessions(db, roomId).find((s) => s.agent_key === row.publisher_agent_key)?.display_name ?? row.sender);
    const texts = unansweredTexts({ agent: session.display_name, sender, senderIsPerson: row.source === 'human', number, text: row.text, roomName: room.display_name, afterMs: this.limitMs });
    void this.store
      .write((tx) => {
        const alert = raiseAlert(tx, { roomId, kind: 'unanswered', subject: `msg_${number}:${sessionId}`, sessionId, messageNumber: number, title: texts.title, body: texts.body, detail: { prompt: texts.prompt } });
        if (alert !== null) tx.afterCommit(() => this.unanswered.set(key, { alert, message: number }));
      })
      .catch((error: unknown) => console.error('could not raise an unanswered-message item:', error));
  }

  private fireIdle(roomId: string, sessionId: string, taskNumber: number, assignedAt: number): void {
    const db = this.store.db;
    const session = getSession(db, sessionId);
    const task = getTaskRow(db, roomId, taskNumber);
    const room = getRoom(db, roomId);
    if (!session || session.ended_at || !task || !room || room.archived_at) return;
    const lastCall = Math.max(this.services.delivery.reachability.lastCallAt(sessionId) ?? 0, Date.parse(session.last_seen_at));
    if (lastCall > assignedAt || activeWorkLease(db, task)?.agent_key !== session.agent_key) return;
    const texts = idleTaskTexts({ agent: session.display_name, task: taskNumber, title: task.title, roomName: room.display_name, afterMs: this.limitMs });
    void this.store
      .write((tx) => {
        const alert = raiseAlert(tx, { roomId, kind: 'idle_task', subject: `task_${taskNumber}:${sessionId}:${assignedAt}`, sessionId, taskNumber, title: texts.title, body: texts.body, detail: { prompt: texts.prompt } });
        if (alert !== null) tx.afterCommit(() => this.idle.set(sessionId, [...(this.idle.get(sessionId) ?? []), { roomId, alert }]));
      })
      .catch((error: unknown) => console.error('could not raise an untouched-task item:', error));
  }

  /** Messages reached a session: their timers stop, and its open item resolves once its message arrived. */
  private onDelivered(roomId: string, sessionId: string, first: number, last: number): void {
    const prefix = `u\n${roomId}\n${sessionId}\n`;
    for (const key of [...this.timers.keys()]) {
      const n = key.startsWith(prefix) ? Number(key.slice(prefix.length)) : NaN;
      if (n >= first && n <= last) this.cancel(key);
    }
    const key = `${roomId}\n${sessionId}`;
    const open = this.unanswered.get(key);
    if (!open || open.message < first || open.message > last) return;
    this.unanswered.delete(key);
    this.resolve(roomId, open.alert);
  }

  /** Any tool call: the session's untouched tasks are touched. */
  private onCall(sessionId: string): void {
    for (const key of this.idleTimers.get(sessionId) ?? []) this.cancel(key);
    this.idleTimers.delete(sessionId);
    const open = this.idle.get(sessionId);
    if (!open) return;
    this.idle.delete(sessionId);
    for (const item of open) this.resolve(item.roomId, item.alert);
  }

  private onLoop(roomId: string, pause: LoopPause, added: readonly string[]): void {
    const names = [...new Set(listRoomSessions(this.store.db, roomId).filter((s) => s.session_kind === 'worker' && pause.keys.has(s.agent_key)).map((s) => s.display_name))];
    const windowMs = this.services.delivery.settings.limits.loopWindowMs;
    const texts = loopTexts({ agents: names, count: pause.count, windowMs });
    const detail: LoopDetail = { keys: [...pause.keys], fromNumber: pause.fromNumber, count: pause.count };
    void this.store
      .write((tx) => {
        const existing = pause.alertNumber === null ? undefined : getAlert(tx.db, roomId, pause.alertNumber);
        if (existing && existing.status === 'open') {
          reviseAlert(tx, existing, texts.body, detail);
          return;
        }
        postSystemEvent(tx, roomId, texts.event, null);
        const alert = raiseAlert(tx, { roomId, kind: 'loop', subject: `loop_from_msg_${pause.fromNumber}:${added.join(',')}`, title: texts.title, body: texts.body, detail });
        tx.afterCommit(() => (pause.alertNumber = alert));
      })
      .catch((error: unknown) => console.error('could not raise a loop item:', error));
  }

  private onBudget(roomId: string, day: string, used: number, budget: number): void {
    const room = getRoom(this.store.db, roomId);
    if (!room) return;
    const texts = budgetTexts({ roomName: room.display_name, used, budget });
    void this.store
      .write((tx) => {
        for (const old of openAlerts(tx.db, 'room_budget', roomId)) closeAlert(tx, roomId, old.number, 'resolved');
        raiseAlert(tx, { roomId, kind: 'room_budget', subject: `day:${day}`, title: texts.title, body: texts.body, detail: { day, budget } });
      })
      .catch((error: unknown) => console.error('could not raise a budget item:', error));
  }

  /** After a restart: the last day's messages start (or fire) their timers again. */
  private rederive(): void {
    const now = Date.parse(this.store.now());
    for (const room of listRooms(this.store.db)) {
      if (room.archived || room.latestMessageNumber === 0) continue;
      for (const row of pageBefore(this.store.db, room.roomId, room.latestMessageNumber + 1, REDERIVE_MESSAGES)) {
        if (Date.parse(row.created_at) >= now - REDERIVE_MS) this.onMessage(room.roomId, row.number, now);
      }
    }
  }

  private delivered(roomId: string, sessionId: string, number: number): boolean {
    return (
      this.services.delivery.deliveries.pendingCovers(roomId, sessionId, number) ||
      RoomReceipts.load(this.store.db, roomId, number, number).of(sessionId, number) !== null
    );
  }

  private resolve(roomId: string, alert: number): void {
    void this.store.write((tx) => closeAlert(tx, roomId, alert, 'resolved')).catch((error: unknown) => console.error('could not resolve an item:', error));
  }

  private cancel(key: string): void {
    const timer = this.timers.get(key);
    if (!timer) return;
    clearTimeout(timer);
    this.timers.delete(key);
  }

  private liveSessionOf(roomId: string, agentKey: string): SessionRow | undefined {
    return listRoomSessions(this.store.db, roomId).find((s) => s.agent_key === agentKey && s.session_kind === 'worker' && !s.ended_at);
  }

  private guard(what: string, fn: () => void): void {
    if (this.closed) return;
    try {
      fn();
    } catch (error) {
      console.error(`delivery alerts: ${what} failed:`, error);
    }
  }
}

