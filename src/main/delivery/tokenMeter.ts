// The token meter (issue 14): the UTF-8 bytes of every tool result sent to an agent session
// (what enters its context), per room and session, today (UTC) and in total. Tokens are
// estimated from bytes (src/shared/tokens.ts). Counted in memory as calls finish, written
// in one transaction per second; a room's daily budget is checked against the count.
import { addMeterBytes, selectRoomBytesOn } from '../store/deliveryQueries';
import type { Store } from '../store/store';
import { estimateTokens } from '../../shared/tokens';
import type { DeliverySettings } from './deliverySettings';

const FLUSH_AFTER_MS = 1_000;

interface Pending {
  roomId: string;
  sessionId: string;
  day: string;
  bytes: number;
  results: number;
}

export interface BudgetState {
  readonly budgetTokens: number | null;
  readonly usedTokens: number;
  readonly reached: boolean;
}

export class TokenMeter {
  private readonly pending = new Map<string, Pending>();
  /** Each room's bytes on `day` (stored plus pending), loaded on first use. */
  private readonly today = new Map<string, { day: string; bytes: number }>();
  private timer: NodeJS.Timeout | null = null;
  /** Rooms and days whose reached budget was told. */
  private readonly told = new Set<string>();
  private readonly reachedListeners = new Set<(roomId: string, day: string, state: BudgetState) => void>();

  constructor(
    private readonly store: Store,
    private readonly settings: DeliverySettings,
  ) {}

  /** Counts one tool result of `bytes` sent in `roomId` (to `sessionId`, or to no agent session). */
  add(roomId: string, sessionId: string | null, bytes: number): void {
    const day = this.day();
    // Loaded before this result joins the pending ones, so it is counted once.
    this.roomToday(roomId, day).bytes += bytes;
    const key = `${roomId}\n${sessionId ?? ''}\n${day}`;
    const entry = this.pending.get(key);
    if (entry) {
      entry.bytes += bytes;
      entry.results += 1;
    } else this.pending.set(key, { roomId, sessionId: sessionId ?? '', day, bytes, results: 1 });
    if (this.settings.roomBudget(roomId) !== null) this.recheck(roomId);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.timer.unref?.();
    }
  }

  /** The room's budget against what its agents received today. */
  budget(roomId: string): BudgetState {
    const budgetTokens = this.settings.roomBudget(roomId);
    const usedTokens = estimateTokens(this.roomToday(roomId).bytes);
    return { budgetTokens, usedTokens, reached: budgetTokens !== null && usedTokens >= budgetTokens };
  }

  /** Tells the listeners once per room and day that its budget is reached (after counting, or a lower budget). */
  recheck(roomId: string): void {
    const state = this.budget(roomId);
    const key = `${roomId}\n${this.day()}`;
    if (!state.reached || this.told.has(key)) return;
    this.told.add(key);
    for (const listener of [...this.reachedListeners]) listener(roomId, this.day(), state);
  }

  /** Called once per room and day when its agents reach its budget (counting, or when the budget is lowered). */
  onBudgetReached(listener: (roomId: string, day: string, state: BudgetState) => void): () => void {
    this.reachedListeners.add(listener);
    return () => this.reachedListeners.delete(listener);
  }

  /** Bytes not yet written, keyed "<room>\n<session>" ('' for no session): they count for today and the total. */
  pendingBySession(): Map<string, number> {
    const out = new Map<string, number>();
    for (const p of this.pending.values()) {
      const key = `${p.roomId}\n${p.sessionId}`;
      out.set(key, (out.get(key) ?? 0) + p.bytes);
    }
    return out;
  }

  /** The UTC day the meter counts in now (YYYY-MM-DD). */
  day(): string {
    return this.store.now().slice(0, 10);
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    try {
      await this.store.write((tx) => {
        const rooms = new Set<string>();
        for (const p of batch) if (addMeterBytes(tx, p.roomId, p.sessionId, p.day, p.bytes, p.results)) rooms.add(p.roomId);
        for (const roomId of rooms) tx.emit({ type: 'meter.changed', roomId });
      });
    } catch (error) {
      console.error('the token meter could not be stored:', error);
    }
  }

  async close(): Promise<void> {
    this.reachedListeners.clear();
    await this.flush();
  }

  private roomToday(roomId: string, day = this.day()): { day: string; bytes: number } {
    let entry = this.today.get(roomId);
    if (!entry || entry.day !== day) {
      let pending = 0;
      for (const p of this.pending.values()) if (p.roomId === roomId && p.day === day) pending += p.bytes;
      entry = { day, bytes: selectRoomBytesOn(this.store.db, roomId, day) + pending };
      this.today.set(roomId, entry);
    }
    return entry;
  }
}
