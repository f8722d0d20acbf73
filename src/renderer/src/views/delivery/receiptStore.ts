// Receipts of the messages on screen (issue 14), kept per room: each message row subscribes
// to its own number, the store fetches the shown ones in batches, and refetches only those a
// receipt event names (or all shown ones, at most once a second, when agents come and go).
import type { MessageReceipts } from '../../../../shared/types';
import type { ApiClient } from '../../api/client';
import type { RoomRef } from '../../lib/rooms';

const BATCH = 200;
const REFRESH_ALL_MS = 1_000;

export class ReceiptStore {
  private readonly receipts = new Map<number, MessageReceipts>();
  private readonly listeners = new Map<number, Set<() => void>>();
  private readonly wanted = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private refreshAll: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    private readonly api: ApiClient,
    readonly room: RoomRef,
  ) {}

  get(number: number): MessageReceipts | undefined {
    return this.receipts.get(number);
  }

  /** A row shows `number`: it hears of changes and the store fetches it. */
  subscribe(number: number, listener: () => void): () => void {
    let set = this.listeners.get(number);
    if (!set) this.listeners.set(number, (set = new Set()));
    set.add(listener);
    if (!this.receipts.has(number)) this.want([number]);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(number);
    };
  }

  /** Messages first..last reached an agent: refetch those of them on screen. */
  changed(first: number, last: number): void {
    this.want([...this.listeners.keys()].filter((n) => n >= first && n <= last));
  }

  /** Agents came, went or changed reachability: refetch everything on screen, at most once a second. */
  changedAll(): void {
    if (this.refreshAll) return;
    this.refreshAll = setTimeout(() => {
      this.refreshAll = null;
      this.want([...this.listeners.keys()]);
    }, REFRESH_ALL_MS);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.refreshAll) clearTimeout(this.refreshAll);
  }

  private want(numbers: number[]): void {
    for (const n of numbers) this.wanted.add(n);
    if (this.wanted.size === 0 || this.timer) return;
    // Rows mount in bursts (a page, a scroll): one call for all of them.
    this.timer = setTimeout(() => void this.fetch(), 30);
  }

  private async fetch(): Promise<void> {
    this.timer = null;
    const numbers = [...this.wanted].filter((n) => this.listeners.has(n));
    this.wanted.clear();
    for (let i = 0; i < numbers.length; i += BATCH) {
      try {
        const { receipts } = await this.api.call('delivery.receipts', { ...this.room, numbers: numbers.slice(i, i + BATCH) });
        if (this.closed) return;
        for (const r of receipts) {
          const old = this.receipts.get(r.number);
          if (old && JSON.stringify(old) === JSON.stringify(r)) continue;
          this.receipts.set(r.number, r);
          for (const listener of this.listeners.get(r.number) ?? []) listener();
        }
      } catch {
        // The next event or scroll asks again; a row without receipts shows none.
      }
    }
  }
}
