// The person's limits for delivery (issue 14), kept in the settings table: when an
// unpicked message or an untouched task becomes a "Needs you" item, how many messages
// among agents with no person involved trip the loop guard (and in how long), and each
// room's daily token budget. Read once, cached, and changed only through this object.
import { getSetting, setSetting } from '../store/settingsQueries';
import type { Store } from '../store/store';

export interface DeliveryLimits {
  /** A message not delivered (or a task untouched) this long becomes a "Needs you" item. */
  readonly unansweredAfterMs: number;
  /** More agent messages than this within loopWindowMs, with no person involved, pause them. */
  readonly loopMessages: number;
  readonly loopWindowMs: number;
}

export const DEFAULT_LIMITS: DeliveryLimits = { unansweredAfterMs: 120_000, loopMessages: 30, loopWindowMs: 600_000 };

const KEYS = { unanswered: 'delivery.unansweredAfterSeconds', loopMessages: 'delivery.loopGuardMessages', loopMinutes: 'delivery.loopGuardMinutes' };
const budgetKey = (roomId: string) => `delivery.roomBudget:${roomId}`;

export interface LimitsPatch {
  readonly unansweredAfterSeconds?: number;
  readonly loopGuardMessages?: number;
  readonly loopGuardMinutes?: number;
}

export class DeliverySettings {
  private current: DeliveryLimits;
  private readonly budgets = new Map<string, number | null>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly store: Store) {
    const read = (key: string, fallback: number) => {
      const value = Number(getSetting(store.db, key));
      return Number.isFinite(value) && value > 0 ? value : fallback;
    };
    this.current = {
      unansweredAfterMs: read(KEYS.unanswered, DEFAULT_LIMITS.unansweredAfterMs / 1000) * 1000,
      loopMessages: read(KEYS.loopMessages, DEFAULT_LIMITS.loopMessages),
      loopWindowMs: read(KEYS.loopMinutes, DEFAULT_LIMITS.loopWindowMs / 60_000) * 60_000,
    };
  }

  get limits(): DeliveryLimits {
    return this.current;
  }

  async update(patch: LimitsPatch): Promise<DeliveryLimits> {
    await this.store.write((tx) => {
      if (patch.unansweredAfterSeconds !== undefined) setSetting(tx, KEYS.unanswered, String(patch.unansweredAfterSeconds));
      if (patch.loopGuardMessages !== undefined) setSetting(tx, KEYS.loopMessages, String(patch.loopGuardMessages));
      if (patch.loopGuardMinutes !== undefined) setSetting(tx, KEYS.loopMinutes, String(patch.loopGuardMinutes));
    });
    this.current = {
      unansweredAfterMs: (patch.unansweredAfterSeconds ?? this.current.unansweredAfterMs / 1000) * 1000,
      loopMessages: patch.loopGuardMessages ?? this.current.loopMessages,
      loopWindowMs: (patch.loopGuardMinutes ?? this.current.loopWindowMs / 60_000) * 60_000,
    };
    for (const listener of [...this.listeners]) listener();
    return this.current;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The room's daily token budget, or null when it has none. */
  roomBudget(roomId: string): number | null {
    if (!this.budgets.has(roomId)) {
      const value = Number(getSetting(this.store.db, budgetKey(roomId)));
      this.budgets.set(roomId, Number.isInteger(value) && value > 0 ? value : null);
    }
    return this.budgets.get(roomId)!;
  }

  async setRoomBudget(roomId: string, tokens: number | null): Promise<void> {
    await this.store.write((tx) => setSetting(tx, budgetKey(roomId), tokens === null ? null : String(tokens)));
    this.budgets.set(roomId, tokens);
    for (const listener of [...this.listeners]) listener();
  }
}
