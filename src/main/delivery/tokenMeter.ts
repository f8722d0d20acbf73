// The token meter (issue 14): the UTF-8 bytes of every tool result sent to an agent session
// (what enters its context), per room and session, today (UTC) and in total. Tokens are
// estimated from bytes (src/shared/tokens.ts). Counted in memory as calls finish, written
// in one transaction per second; a room's daily budget is checked against the count.
import { addMeterBytes, selectRoomBytesOn } from '../store/deliveryQueries';
import type { Storage } from '../store/port';
import { estimateTokens } from '../../shared/tokens';
import { Background, BatchedWrite } from './background';
import type { DeliverySettings } from './deliverySettings';

const FLUSH_AFTER_MS = 1_000;

interface Pending {
  roomId: string;
  sessionId: string;
  day: string;
  bytes: number;
  results: number;
}

/** A room's bytes on `day`: what was stored before this app counted any (read once), plus what it counted since. */
interface RoomDay {
  readonly day: string;
  readonly stored: Promise<number>;
  added: number;
}

export interface BudgetState {
  readonly budgetTokens: number | null;
  readonly usedTokens: number;
  readonly reached: boolean;
}

export class TokenMeter {
  private readonly pending = new Map<string, Pending>();
  /** Entries of the write under way: still counted until its COMMIT. */
  private inFlight: Pending[] = [];
  private readonly today = new Map<string, RoomDay>();
  private readonly batch = new BatchedWrite(FLUSH_AFTER_MS, () => this.write());
  /** Rooms and days whose reached budget was told. */
  private readonly told = new Set<string>();
  private readonly reachedListeners = new Set<(roomId: string, day: string, state: BudgetState) => void>();
  private readonly background = new Background('token meter');

  constructor(
    private readonly store: Storage,
    private readonly settings: DeliverySettings,
  ) {}

  /** Counts one tool result of `bytes` sent in `roomId` (to `sessionId`, or to no agent session). */
  add(roomId: string, sessionId: string | null, bytes: number): void {
    const day = this.day();
    // The room's stored bytes of the day are read before any of this app's are written, so none counts twice.
    this.roomDay(roomId, day).added += bytes;
    const key = `${roomId}\n${sessionId ?? ''}\n${day}`;
    const entry = this.pending.get(key);
    if (entry) {
      entry.bytes += bytes;
      entry.results += 1;
    } else this.pending.set(key, { roomId, sessionId: sessionId ?? '', day, bytes, results: 1 });
    if (this.settings.roomBudget(roomId) !== null) this.background.run('budget check', () => this.recheck(roomId));
    this.batch.soon();
  }

  /** The room's budget against what its agents received today. */
  async budget(roomId: string): Promise<BudgetState> {
    const budgetTokens = this.settings.roomBudget(roomId);
    const entry = this.roomDay(roomId, this.day());
    const usedTokens = estimateTokens((await entry.stored) + entry.added);
    return { budgetTokens, usedTokens, reached: budgetTokens !== null && usedTokens >= budgetTokens };
  }

  /** Tells the listeners once per room and day that its budget is reached (after counting, or a lower budget). */
  async recheck(roomId: string): Promise<void> {
    const day = this.day();
    const state = await this.budget(roomId);
    const key = `${roomId}\n${day}`;
    if (!state.reached || this.told.has(key)) return;
    this.told.add(key);
    for (const listener of [...this.reachedListeners]) listener(roomId, day, state);
  }

  /** Called once per room and day when its agents reach its budget (counting, or when the budget is lowered). */
  onBudgetReached(listener: (roomId: string, day: string, state: BudgetState) => void): () => void {
    this.reachedListeners.add(listener);
    return () => this.reachedListeners.delete(listener);
  }

  /**
   * Bytes not yet written, keyed "<room>\n<session>" ('' for no session): they count for today
   * and the total. On SQLite a write's bytes leave this at its COMMIT, so a meter read together
   * with it counts each byte once.
   */
  pendingBySession(): Map<string, number> {
    const out = new Map<string, number>();
    for (const p of [...this.pending.values(), ...this.inFlight]) {
      const key = `${p.roomId}\n${p.sessionId}`;
      out.set(key, (out.get(key) ?? 0) + p.bytes);
    }
    return out;
  }

  /** The UTC day the meter counts in now (YYYY-MM-DD). */
  day(): string {
    return this.store.now().slice(0, 10);
  }

  /** Writes what is counted, after any write under way; never rejects (a failure is logged). */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  async close(): Promise<void> {
    this.reachedListeners.clear();
    await this.background.settled();
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.inFlight = batch;
    try {
      // Each room's stored bytes of the day are known before this batch joins them.
      await Promise.all(batch.flatMap((p) => this.today.get(p.roomId)?.stored ?? []));
      await this.store.write(async (tx) => {
        const rooms = new Set<string>();
        for (const p of batch) if (await addMeterBytes(tx, p.roomId, p.sessionId, p.day, p.bytes, p.results)) rooms.add(p.roomId);
        for (const roomId of rooms) tx.emit({ type: 'meter.changed', roomId });
        tx.afterCommit(() => (this.inFlight = []));
      });
    } catch (error) {
      console.error('the token meter could not be stored:', error);
      this.inFlight = [];
    }
  }

  private roomDay(roomId: string, day: string): RoomDay {
    let entry = this.today.get(roomId);
    if (!entry || entry.day !== day) {
      const stored = this.store.read((q) => selectRoomBytesOn(q, roomId, day)).catch((error: unknown) => {
        console.error('the token meter could not read a room:', error);
        return 0;
      });
      entry = { day, stored, added: 0 };
      this.today.set(roomId, entry);
    }
    return entry;
  }
}
