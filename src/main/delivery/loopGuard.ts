// The loop guard (issue 14), for every agent alike, waiting or managed: when agents post more
// than the limit of messages (default 30) within the window (default 10 minutes) with no
// person posting in between, the agents of that stretch are paused: from the message that
// went past the limit on, their messages to one another wake none of them (routing's
// `loop_paused`, silent). Their messages are still stored and shown; the poster is told in
// its send result. A person resumes them (or stops them) from "Needs you". Pauses live in
// memory and in their open "Needs you" item, so a restart keeps them.
import { alertDetail, openAlerts } from '../domain/knowledge/alerts';
import { getMessageRow, pageBefore } from '../domain/messages/read';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/store';
import type { DeliverySettings } from './deliverySettings';

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
  private readonly windows = new Map<string, Seen[]>();
  private readonly pauses = new Map<string, LoopPause>();
  private readonly listeners = new Set<(roomId: string, pause: LoopPause, added: readonly string[]) => void>();
  private readonly off: () => void;

  constructor(
    private readonly store: Store,
    bus: EventBus,
    private readonly settings: DeliverySettings,
  ) {
    for (const alert of openAlerts(store.db, 'loop')) {
      const detail = alertDetail<LoopDetail>(alert);
      if (!Array.isArray(detail.keys) || typeof detail.fromNumber !== 'number') continue;
      this.pauses.set(alert.room_id, { keys: new Set(detail.keys), fromNumber: detail.fromNumber, alertNumber: alert.number, count: detail.count ?? 0 });
    }
    // Synchronous, inside the commit's publish: a waiter routes the message only afterwards.
    this.off = bus.on('message.created', (event) => this.onMessage(event.roomId, event.number));
  }

  /** True when `number`, posted by `senderKey`, must not wake `recipientKey` (both paused in the room). */
  pausedBetween(roomId: string, senderKey: string, recipientKey: string, number: number): boolean {
    const pause = this.pauses.get(roomId);
    return !!pause && number >= pause.fromNumber && pause.keys.has(senderKey) && pause.keys.has(recipientKey);
  }

  /** The room's pause when it covers a message `number` by `senderKey`, for the poster's notice. */
  pauseOf(roomId: string, senderKey: string, number: number): LoopPause | null {
    const pause = this.pauses.get(roomId);
    return pause && number >= pause.fromNumber && pause.keys.has(senderKey) ? pause : null;
  }

  pause(roomId: string): LoopPause | null {
    return this.pauses.get(roomId) ?? null;
  }

  /** Lifts the room's pause; counting starts afresh. */
  resume(roomId: string): void {
    this.pauses.delete(roomId);
    this.windows.set(roomId, []);
  }

  /** A pause tripped or drew in more agents (`added`); the listener writes the "Needs you" item. */
  onTrip(listener: (roomId: string, pause: LoopPause, added: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.off();
    this.listeners.clear();
  }

  private onMessage(roomId: string, number: number): void {
    const row = getMessageRow(this.store.db, roomId, number);
    if (!row) return;
    if (row.source === 'human') {
      // A person took part: whatever came before is no loop.
      this.windows.set(roomId, []);
      return;
    }
    if (!countsTowardsLoop(row)) return;
    const { loopMessages, loopWindowMs } = this.settings.limits;
    const window = this.windows.get(roomId) ?? this.seed(roomId, number);
    this.windows.set(roomId, window);
    const at = Date.parse(row.created_at);
    window.push({ at, key: row.publisher_agent_key! });
    while (window.length > 0 && window[0].at <= at - loopWindowMs) window.shift();
    if (window.length <= loopMessages) return;
    const keys = new Set(window.map((s) => s.key));
    if (keys.size < 2) return;
    const count = window.length;
    window.length = 0;
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
        listener(roomId, pause, added);
      } catch (error) {
        console.error('loop guard listener failed:', error);
      }
    }
  }

  /** After a restart: the agent messages before `number` since the last person's message, within the window. */
  private seed(roomId: string, number: number): Seen[] {
    const { loopMessages, loopWindowMs } = this.settings.limits;
    const rows = pageBefore(this.store.db, roomId, number, Math.min(SEED_LIMIT, loopMessages * 2 + 2));
    const since = Date.parse(this.store.now()) - loopWindowMs;
    const seen: Seen[] = [];
    for (const row of rows) {
      if (row.source === 'human') seen.length = 0;
      else if (countsTowardsLoop(row) && Date.parse(row.created_at) > since) seen.push({ at: Date.parse(row.created_at), key: row.publisher_agent_key! });
    }
    return seen;
  }
}

/** An agent's chat message (status posts and room events are no conversation). */
function countsTowardsLoop(row: { source: string; kind: string; publisher_agent_key: string | null }): boolean {
  return row.source === 'agent' && row.kind === 'message' && row.publisher_agent_key !== null;
}
