// The person's limits for delivery (issue 14), kept in the settings table: when an
// unpicked message or an untouched task becomes a "Needs you" item, how many messages
// among agents with no person involved trip the loop guard (and in how long), and each
// room's daily token budget. Read once at start (`ready`; the defaults until then), cached,
// and changed only through this object. All of it is this person's and lives on this
// computer, a team room's budget too (it holds back the agents connected to this app; the
// count it is checked against is the room's, in the team's database).
import { placeKey } from '../domain/placeKeys';
import { LOCAL_PLACE, type PlacedRoom } from '../store/places';
import type { Storage } from '../store/port';
import { getSetting, listSettingsWithPrefix, setSetting } from '../store/settingsQueries';

export interface DeliveryLimits {
  /** A message not delivered (or a task untouched) this long becomes a "Needs you" item. */
  readonly unansweredAfterMs: number;
  /** More agent messages than this within loopWindowMs, with no person involved, pause them. */
  readonly loopMessages: number;
  readonly loopWindowMs: number;
}

export const DEFAULT_LIMITS: DeliveryLimits = { unansweredAfterMs: 120_000, loopMessages: 30, loopWindowMs: 600_000 };

const KEYS = { unanswered: 'delivery.unansweredAfterSeconds', loopMessages: 'delivery.loopGuardMessages', loopMinutes: 'delivery.loopGuardMinutes' };
/** Followed by a room id of this computer, or by "<team>\n<room id>" (placeKey) for a team's room. */
const BUDGET_PREFIX = 'delivery.roomBudget:';
const budgetKey = (room: PlacedRoom) => (room.place === LOCAL_PLACE ? room.roomId : placeKey(room.place, room.roomId));
/** More rooms with a budget than any person sets; the rest would read as "no budget". */
const MAX_BUDGETS = 100_000;

export interface LimitsPatch {
  readonly unansweredAfterSeconds?: number;
  readonly loopGuardMessages?: number;
  readonly loopGuardMinutes?: number;
}

export class DeliverySettings {
  private current: DeliveryLimits = DEFAULT_LIMITS;
  /** Rooms (budgetKey) with a daily token budget; a room not here has none. */
  private readonly budgets = new Map<string, number>();
  /** Settles once the stored limits and budgets are read (a failed read leaves the defaults). */
  readonly ready: Promise<void>;

  constructor(private readonly store: Storage) {
    this.ready = this.load().catch((error: unknown) => console.error('delivery settings: could not load:', error));
  }

  get limits(): DeliveryLimits {
    return this.current;
  }

  async update(patch: LimitsPatch): Promise<DeliveryLimits> {
    await this.ready;
    await this.store.write(async (tx) => {
      if (patch.unansweredAfterSeconds !== undefined) await setSetting(tx, KEYS.unanswered, String(patch.unansweredAfterSeconds));
      if (patch.loopGuardMessages !== undefined) await setSetting(tx, KEYS.loopMessages, String(patch.loopGuardMessages));
      if (patch.loopGuardMinutes !== undefined) await setSetting(tx, KEYS.loopMinutes, String(patch.loopGuardMinutes));
    });
    this.current = {
      unansweredAfterMs: (patch.unansweredAfterSeconds ?? this.current.unansweredAfterMs / 1000) * 1000,
      loopMessages: patch.loopGuardMessages ?? this.current.loopMessages,
      loopWindowMs: (patch.loopGuardMinutes ?? this.current.loopWindowMs / 60_000) * 60_000,
    };
    return this.current;
  }

  /** The room's daily token budget, or null when it has none. */
  roomBudget(room: PlacedRoom): number | null {
    return this.budgets.get(budgetKey(room)) ?? null;
  }

  async setRoomBudget(room: PlacedRoom, tokens: number | null): Promise<void> {
    await this.ready;
    const key = budgetKey(room);
    await this.store.write((tx) => setSetting(tx, BUDGET_PREFIX + key, tokens === null ? null : String(tokens)));
    if (tokens === null) this.budgets.delete(key);
    else this.budgets.set(key, tokens);
  }

  private async load(): Promise<void> {
    const { stored, budgets } = await this.store.read(async (q) => ({
      stored: {
        unanswered: await getSetting(q, KEYS.unanswered),
        loopMessages: await getSetting(q, KEYS.loopMessages),
        loopMinutes: await getSetting(q, KEYS.loopMinutes),
      },
      budgets: await listSettingsWithPrefix(q, BUDGET_PREFIX, MAX_BUDGETS),
    }));
    const positive = (value: string | null, fallback: number) => {
      const n = Number(value);
      return value !== null && Number.isFinite(n) && n > 0 ? n : fallback;
    };
    this.current = {
      unansweredAfterMs: positive(stored.unanswered, DEFAULT_LIMITS.unansweredAfterMs / 1000) * 1000,
      loopMessages: positive(stored.loopMessages, DEFAULT_LIMITS.loopMessages),
      loopWindowMs: positive(stored.loopMinutes, DEFAULT_LIMITS.loopWindowMs / 60_000) * 60_000,
    };
    for (const { key, value } of budgets) {
      const n = Number(value);
      if (Number.isInteger(n) && n > 0) this.budgets.set(key.slice(BUDGET_PREFIX.length), n);
    }
  }
}
