// Repeated log lines, limited: the app's console.error / console.warn print a line (with its
// trace) only the first few times a minute; the rest of that minute is counted and said in
// one line when the minute is over. A flood of the same failure (a team member's forged
// hints, a database that keeps refusing) then costs a few lines, not gigabytes of traces.
import { format } from 'node:util';

/** Lines with the same start printed per window; the rest are counted. */
const PER_WINDOW = 5;
const WINDOW_MS = 60_000;
/** Distinct lines tracked per window: beyond, every new line counts as one "other" line. */
const MAX_KEYS = 500;

type Write = (...args: unknown[]) => void;

interface Seen {
  printed: number;
  skipped: number;
}

export class LogLimit {
  private seen = new Map<string, Seen>();
  private timer: NodeJS.Timeout | null = null;
  /** Lines not printed so far (counted). */
  skipped = 0;

  constructor(
    private readonly write: Write,
    private readonly options: { perWindow?: number; windowMs?: number } = {},
  ) {}

  log(args: unknown[]): void {
    const key = keyOf(args, this.seen.size >= MAX_KEYS ? this.seen : null);
    let seen = this.seen.get(key);
    if (!seen) this.seen.set(key, (seen = { printed: 0, skipped: 0 }));
    if (seen.printed < (this.options.perWindow ?? PER_WINDOW)) {
      seen.printed++;
      this.write(...args);
    } else {
      seen.skipped++;
      this.skipped++;
    }
    this.timer ??= setTimeout(() => this.endWindow(), this.options.windowMs ?? WINDOW_MS);
    this.timer.unref?.();
  }

  /** Says what was counted and starts a new window. */
  endWindow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const seen = this.seen;
    this.seen = new Map();
    for (const [key, { skipped }] of seen) {
      if (skipped > 0) this.write(`${key} … (repeated ${skipped} more times in the last ${Math.round((this.options.windowMs ?? WINDOW_MS) / 1000)} s, not printed)`);
    }
  }
}

/** The line's first 160 characters, its first line only; "other lines" when too many are tracked already. */
function keyOf(args: unknown[], full: Map<string, Seen> | null): string {
  const first = format(...args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : a))).split('\n', 1)[0].slice(0, 160);
  return full && !full.has(first) ? '(other lines)' : first;
}

let installed = false;

/** Limits the process's console.error and console.warn (once per process). */
export function limitRepeatedLogs(): void {
  if (installed) return;
  installed = true;
  for (const level of ['error', 'warn'] as const) {
    const limit = new LogLimit(console[level].bind(console));
    console[level] = (...args: unknown[]) => limit.log(args);
  }
}
