// Work a delivery service does on its own, off the path of a tool result: tasks it starts (a
// timer's write, a read a listener needs), whose failures are logged, never lost or thrown at
// an event's publisher, and which close() waits for, so nothing runs against a closed store;
// and writes gathered in memory and stored in batches.
export class Background {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly owner: string) {}

  /** Starts `work` now; what it throws is logged as "<owner>: <what> failed". */
  run(what: string, work: () => Promise<unknown>): void {
    let started: Promise<unknown>;
    try {
      started = work();
    } catch (error) {
      started = Promise.reject(error);
    }
    const task: Promise<void> = started.then(
      () => undefined,
      (error: unknown) => console.error(`${this.owner}: ${what} failed:`, error),
    );
    this.running.add(task);
    void task.finally(() => this.running.delete(task));
  }

  /** Resolves once every task started so far, and every task those started, has settled. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

/**
 * Writes gathered in memory (receipts, the meter): one write a moment after the first thing
 * gathered, or at once on flush(); one write at a time, in order. `write` logs its own failures.
 */
export class BatchedWrite {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly afterMs: number,
    private readonly write: () => Promise<void>,
  ) {}

  /** Something was gathered: it is written within afterMs. */
  soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.afterMs);
    this.timer.unref?.();
  }

  /** Writes what is gathered now, after any write under way; never rejects. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(() => this.write()).catch((error: unknown) => console.error('a batched write failed:', error));
    return this.writing;
  }
}
