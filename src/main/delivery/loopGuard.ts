// The loop guard (issue 14), for every agent alike, waiting or managed: when agents post more
// than the limit of messages (default 30) within the window (default 10 minutes) with no
// person posting in between, the agents of that stretch are paused: from the message that
// went past the limit on, their messages to one another wake none of them (routing's
// `loop_paused`, silent). Their messages are still stored and shown; the poster is told in
// its send result. A person resumes them (or stops them) from "Needs you". Pauses live in
// memory and in their open "Needs you" item, so a restart keeps them (read back in `ready`;
// a team's when it comes online, should it be offline at the start: PlaceLoads).
// A message is counted as its commit is published, before any waiter routes it; only a
// room's first agent message since the start first reads what came before it (the stretch
// a restart cut off), and the room's messages are counted in order once that read is done.
// Rooms are told apart by place: a team room's messages are counted (and read back) in the
// team's database, its commits by other apps of the team arriving as remote events.
import { alertDetail, openAlerts } from '../domain/knowledge/alerts';
import { getMessageRow, pageBefore, summaryOf } from '../domain/messages/read';
import type { SessionRow } from '../domain/sessions/sessions';
import type { MessageSummary } from '../events/types';
import type { EventBus } from '../events/bus';
import { storageIn, type Places, type PlacedRoom } from '../store/places';
import type { Storage } from '../store/port';
import { placeKey, splitPlaceKey } from '../domain/placeKeys';
import { Background } from './background';
import type { DeliverySettings } from './deliverySettings';
import { PlaceLoads } from './placeLoads';
import { timeOf } from '../domain/rowTimes';

/** Agents paused in one room: their messages to one another from `fromNumber` on wake none of them. */
export interface LoopPause {
  readonly keys: Set<string>;
  readonly fromNumber: number;
  /** The "Needs you" item that asks the person; null until it is written. */
  alertNumber: number | null;
  /** How many agent messages went past the limit when it tripped (for the words). */
  readonly count: number;
}

export interface LoopDetail extends Record<string, unknown> {
  keys: string[];
  fromNumber: number;
  count: number;
}

interface Seen {
  readonly at: number;
  readonly key: string;
}

/** How many earlier messages a room's first agent message after a restart looks back over. */
const SEED_LIMIT = 2_000;

export class LoopGuard {
  private readonly windows = new Map<string, Stretch>();
  private readonly pauses = new Map<string, LoopPause>();
  /** Rooms whose earlier messages are being read: their new messages wait here, in order. */
  private readonly seeding = new Map<string, Array<{ number: number; message: MessageSummary | undefined }>>();
  private readonly listeners = new Set<(room: PlacedRoom, pause: LoopPause, added: readonly string[]) => void>();
  private readonly background = new Background('loop guard');
  private readonly off: () => void;
  private readonly loads: PlaceLoads;
  /** Settles once the pauses kept in open "Needs you" items of the places reachable at the start are back. */
  readonly ready: Promise<void>;

  constructor(
    private readonly places: Places,
    bus: EventBus,
    private readonly settings: DeliverySettings,
  ) {
    this.loads = new PlaceLoads(places, bus, this.background, (storage) => this.loadPauses(storage));
    this.ready = this.loads.ready;
    // Synchronous, inside the commit's publish: a waiter routes the message only afterwards.
    this.off = bus.on('message.created', (event) => this.onMessage(placeKey(event.place, event.roomId), event.number, event.message));
  }

  /** True when `number`, posted by `senderKey`, must not wake `recipientKey` (both paused in the room). */
  pausedBetween(room: PlacedRoom, senderKey: string, recipientKey: string, number: number): boolean {
    const pause = this.pauses.get(keyOf(room));
    return !!pause && number >= pause.fromNumber && pause.keys.has(senderKey) && pause.keys.has(recipientKey);
  }

  /** The room's pause when it covers a message `number` by `senderKey`, for the poster's notice. */
  pauseOf(room: PlacedRoom, senderKey: string, number: number): LoopPause | null {
    const pause = this.pauses.get(keyOf(room));
    return pause && number >= pause.fromNumber && pause.keys.has(senderKey) ? pause : null;
  }

  pause(room: PlacedRoom): LoopPause | null {
    return this.pauses.get(keyOf(room)) ?? null;
  }

  /** Lifts the room's pause; counting starts afresh. */
  resume(room: PlacedRoom): void {
    this.pauses.delete(keyOf(room));
    this.windows.set(keyOf(room), new Stretch());
  }

  /** A pause tripped or drew in more agents (`added`); the listener writes the "Needs you" item. */
  onTrip(listener: (room: PlacedRoom, pause: LoopPause, added: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.off();
    this.loads.close();
    this.listeners.clear();
    await this.background.settled();
  }

  /** The pauses kept in a place's open "Needs you" items. */
  private async loadPauses(storage: Storage): Promise<void> {
    this.keepPauses(storage.place, await storage.read((q) => openAlerts(q, 'loop')));
  }

  private keepPauses(place: string, alerts: Awaited<ReturnType<typeof openAlerts>>): void {
    for (const alert of alerts) {
      const detail = alertDetail<LoopDetail>(alert);
      if (!Array.isArray(detail.keys) || typeof detail.fromNumber !== 'number') continue;
      const key = placeKey(place, alert.room_id);
      // A pause that tripped since the start is newer than the stored one.
      if (!this.pauses.has(key)) {
        this.pauses.set(key, { keys: new Set(detail.keys), fromNumber: detail.fromNumber, alertNumber: alert.number, count: detail.count ?? 0 });
      }
    }
  }

  /** `roomId` here and below is the room's place key (placeKey). */
  private onMessage(roomId: string, number: number, message: MessageSummary | undefined): void {
    const waiting = this.seeding.get(roomId);
    if (waiting) {
      waiting.push({ number, message });
      return;
    }
    // A person's message starts afresh and a status or event counts for nothing: no earlier message matters then.
    if (message && (this.windows.has(roomId) || message.source === 'human' || !countsTowardsLoop(message))) {
      this.count(roomId, number, message);
      return;
    }
    this.seeding.set(roomId, [{ number, message }]);
    this.background.run('reading a room', () => this.seed(roomId));
  }

  /** The room's first agent message since the start (or one its event did not describe): reads, then counts the waiting ones in order. */
  private async seed(roomId: string): Promise<void> {
    const waiting = this.seeding.get(roomId)!;
    try {
      if (!this.windows.has(roomId)) {
        const stretch = await this.stretchBefore(roomId, waiting[0].number);
        // A resume while it read started the room afresh: that wins.
        if (!this.windows.has(roomId)) this.windows.set(roomId, stretch);
      }
      while (waiting.length > 0) {
        const { number, message } = waiting.shift()!;
        const { place, id } = splitPlaceKey(roomId);
        const summary = message ?? summaryOf(await (await storageIn(this.places, place)).read((q) => getMessageRow(q, id, number)));
        if (summary) this.count(roomId, number, summary);
      }
    } finally {
      this.seeding.delete(roomId);
    }
  }

  private count(roomId: string, number: number, row: MessageSummary): void {
    if (row.source === 'human') {
      // A person took part: whatever came before is no loop.
      this.windows.set(roomId, new Stretch());
      return;
    }
    if (!countsTowardsLoop(row)) return;
    const { loopMessages, loopWindowMs } = this.settings.limits;
    let stretch = this.windows.get(roomId);
    if (!stretch) this.windows.set(roomId, (stretch = new Stretch()));
    const at = timeOf(row.createdAt, Date.now());
    stretch.push({ at, key: row.publisherAgentKey! }, loopMessages + 1, at - loopWindowMs);
    if (stretch.length <= loopMessages || stretch.agents < 2) return;
    const keys = stretch.keys();
    const count = stretch.length;
    this.windows.set(roomId, new Stretch());
    this.trip(roomId, keys, number, count);
  }

  private trip(roomId: string, keys: Set<string>, number: number, count: number): void {
    let pause = this.pauses.get(roomId);
    let added: string[];
    if (pause) {
      added = [...keys].filter((k) => !pause!.keys.has(k));
      if (added.length === 0) return;
      for (const key of added) pause.keys.add(key);
    } else {
      pause = { keys, fromNumber: number, alertNumber: null, count };
      this.pauses.set(roomId, pause);
      added = [...keys];
    }
    for (const listener of [...this.listeners]) {
      try {
        const { place, id } = splitPlaceKey(roomId);
        listener({ place, roomId: id }, pause, added);
      } catch (error) {
        console.error('loop guard listener failed:', error);
      }
    }
  }

  /** After a restart: the agent messages before `number` since the last person's message, within the window. */
  private async stretchBefore(roomId: string, number: number): Promise<Stretch> {
    const { loopMessages, loopWindowMs } = this.settings.limits;
    const { place, id } = splitPlaceKey(roomId);
    const storage = await storageIn(this.places, place);
    const rows = await storage.read((q) => pageBefore(q, id, number, Math.min(SEED_LIMIT, loopMessages + 1)));
    const since = Date.parse(storage.now()) - loopWindowMs;
    let stretch = new Stretch();
    for (const row of rows) {
      if (row.source === 'human') stretch = new Stretch();
      else if (countsTowardsLoop(summaryOf(row)!)) stretch.push({ at: timeOf(row.created_at, since), key: row.publisher_agent_key! }, loopMessages + 1, since);
    }
    return stretch;
  }
}

const keyOf = (room: PlacedRoom) => placeKey(room.place, room.roomId);

/**
 * The latest agent messages of a room since a person last posted: at most `keep` of them, none
 * older than `since`, with how many each agent posted, so a message costs the same however long
 * agents have been talking.
 */
class Stretch {
  private readonly seen: Seen[] = [];
  private readonly perAgent = new Map<string, number>();

  get length(): number {
    return this.seen.length;
  }

  /** How many different agents posted in the stretch. */
  get agents(): number {
    return this.perAgent.size;
  }

  keys(): Set<string> {
    return new Set(this.perAgent.keys());
  }

  push(entry: Seen, keep: number, since: number): void {
    this.seen.push(entry);
    this.perAgent.set(entry.key, (this.perAgent.get(entry.key) ?? 0) + 1);
    while (this.seen.length > keep || (this.seen.length > 0 && this.seen[0].at <= since)) {
      const dropped = this.seen.shift()!;
      const left = this.perAgent.get(dropped.key)! - 1;
      if (left === 0) this.perAgent.delete(dropped.key);
      else this.perAgent.set(dropped.key, left);
    }
  }
}

/** An agent's chat message (status posts and room events are no conversation). */
function countsTowardsLoop(row: Pick<MessageSummary, 'source' | 'kind' | 'publisherAgentKey'>): boolean {
  return row.source === 'agent' && row.kind === 'message' && row.publisherAgentKey !== null;
}

/** The room's agent sessions a pause holds (ended ones too: they name the agent). */
export function sessionsInLoop<S extends Pick<SessionRow, 'session_kind' | 'agent_key'>>(sessions: readonly S[], pause: Pick<LoopPause, 'keys'>): S[] {
  return sessions.filter((s) => s.session_kind === 'worker' && pause.keys.has(s.agent_key));
}

/** The names of the agents a pause holds, once each, in the order they joined the room. */
export function namesInLoop(sessions: readonly Pick<SessionRow, 'session_kind' | 'agent_key' | 'display_name'>[], pause: Pick<LoopPause, 'keys'>): string[] {
  return [...new Set(sessionsInLoop(sessions, pause).map((s) => s.display_name))];
}
