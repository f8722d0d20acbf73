// The token meter (issue 14): the UTF-8 bytes of every tool result sent to an agent session
// (what enters its context), per room and session, today (UTC) and in total. Tokens are
// estimated from bytes (src/shared/tokens.ts). Counted in memory as calls finish, written
// in one transaction per second and place (a team room's rows live in the team's database);
// a room's daily budget is checked against the count.
import { addMeterBytes, selectRoomBytesOn } from '../store/deliveryQueries';
import { LOCAL_PLACE, nowIn, storageIn, type Places, type PlacedRoom } from '../store/places';
import { placeKey } from '../domain/placeKeys';
import { estimateTokens } from '../../shared/tokens';
import { Background, BatchedWrite } from './background';
import type { DeliverySettings } from './deliverySettings';

const FLUSH_AFTER_MS = 1_000;

interface Pending {
  place: string;
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
  /** Rooms (placeKey) and their day. */
  private readonly today = new Map<string, RoomDay>();
  private readonly batch = new BatchedWrite(FLUSH_AFTER_MS, () => this.write());
  /** Rooms and days whose reached budget was told. */
  private readonly told = new Set<string>();
  private readonly reachedListeners = new Set<(room: PlacedRoom, day: string, state: BudgetState) => void>();
  private readonly background = new Background('token meter');
  /** Reads of the stored meter under way (counted); a write waits for them, see counted(). */
  private reading = 0;
  private readsDone: (() => void) | null = null;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly places: Places,
    private readonly settings: DeliverySettings,
  ) {}

  /** Counts one tool result of `bytes` sent in `room` (to `sessionId`, or to no agent session). */
  add(room: PlacedRoom, sessionId: string | null, bytes: number): void {
    const day = this.day(room.place);
    // The room's stored bytes of the day are read before any of this app's are written, so none counts twice.
    this.roomDay(room, day).added += bytes;
    const key = `${placeKey(room.place, room.roomId)}\n${sessionId ?? ''}\n${day}`;
    const entry = this.pending.get(key);
    if (entry) {
      entry.bytes += bytes;
      entry.results += 1;
    } else this.pending.set(key, { place: room.place, roomId: room.roomId, sessionId: sessionId ?? '', day, bytes, results: 1 });
    if (this.settings.roomBudget(room) !== null) this.background.run('budget check', () => this.recheck(room));
    this.batch.soon();
  }

  /** The room's budget against what its agents received today (through this app; a team's other apps count theirs). */
  async budget(room: PlacedRoom): Promise<BudgetState> {
    const budgetTokens = this.settings.roomBudget(room);
    const entry = this.roomDay(room, this.day(room.place));
    const usedTokens = estimateTokens((await entry.stored) + entry.added);
    return { budgetTokens, usedTokens, reached: budgetTokens !== null && usedTokens >= budgetTokens };
  }

  /** Tells the listeners once per room and day that its budget is reached (after counting, or a lower budget). */
  async recheck(room: PlacedRoom): Promise<void> {
    const day = this.day(room.place);
    const state = await this.budget(room);
    const key = `${placeKey(room.place, room.roomId)}\n${day}`;
    if (!state.reached || this.told.has(key)) return;
    this.told.add(key);
    for (const listener of [...this.reachedListeners]) listener(room, day, state);
  }

  /** Called once per room and day when its agents reach its budget (counting, or when the budget is lowered). */
  onBudgetReached(listener: (room: PlacedRoom, day: string, state: BudgetState) => void): () => void {
    this.reachedListeners.add(listener);
    return () => this.reachedListeners.delete(listener);
  }

  /**
   * Runs `read` (a read of the stored meter of `place`) with the bytes not yet written there,
   * keyed "<room>\n<session>" ('' for no session): they count for today and the total. No
   * meter write of this app commits while `read` runs, and none is under way when it starts,
   * so each byte is counted once: in the rows read or in `pending`, never both (on
   * PostgreSQL a read is not atomic with taking `pending`, so a commit between them would
   * count twice).
   */
  async counted<T>(place: string, read: (pending: ReadonlyMap<string, number>) => Promise<T>): Promise<T> {
    while (this.writing) await this.writing;
    this.reading++;
    try {
      const pending = new Map<string, number>();
      for (const p of [...this.pending.values(), ...this.inFlight]) {
        if (p.place !== place) continue;
        const key = `${p.roomId}\n${p.sessionId}`;
        pending.set(key, (pending.get(key) ?? 0) + p.bytes);
      }
      return await read(pending);
    } finally {
      if (--this.reading === 0) this.readsDone?.();
    }
  }

  /** The UTC day the meter counts in now in `place` (YYYY-MM-DD). */
  day(place: string = LOCAL_PLACE): string {
    return nowIn(this.places, place).slice(0, 10);
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
    // After the meter reads under way (counted); new ones wait for this write.
    let done!: () => void;
    this.writing = new Promise<void>((resolve) => (done = resolve));
    try {
      while (this.reading > 0) await new Promise<void>((resolve) => (this.readsDone = resolve));
      this.readsDone = null;
      const batch = [...this.pending.values()];
      this.pending.clear();
      this.inFlight = batch;
      const byPlace = new Map<string, Pending[]>();
      for (const p of batch) byPlace.set(p.place, [...(byPlace.get(p.place) ?? []), p]);
      await Promise.all([...byPlace].map(([place, entries]) => this.writeIn(place, entries)));
      this.inFlight = [];
    } finally {
      this.writing = null;
      done();
    }
  }

  private async writeIn(place: string, batch: Pending[]): Promise<void> {
    try {
      // Each room's stored bytes of the day are known before this batch joins them.
      await Promise.all(batch.flatMap((p) => this.today.get(placeKey(place, p.roomId))?.stored ?? []));
      await (await storageIn(this.places, place)).write(async (tx) => {
        const rooms = new Set<string>();
        for (const p of batch) if (await addMeterBytes(tx, p.roomId, p.sessionId, p.day, p.bytes, p.results)) rooms.add(p.roomId);
        for (const roomId of rooms) tx.emit({ type: 'meter.changed', roomId });
      }, { quiet: true });
    } catch (error) {
      console.error(`the token meter could not be stored (${place}):`, error);
    }
  }

  private roomDay(room: PlacedRoom, day: string): RoomDay {
    const key = placeKey(room.place, room.roomId);
    let entry = this.today.get(key);
    if (!entry || entry.day !== day) {
      const stored = storageIn(this.places, room.place)
        .then((storage) => storage.read((q) => selectRoomBytesOn(q, room.roomId, day)))
        .catch((error: unknown) => {
          console.error('the token meter could not read a room:', error);
          return 0;
        });
      entry = { day, stored, added: 0 };
      this.today.set(key, entry);
    }
    return entry;
  }
}
