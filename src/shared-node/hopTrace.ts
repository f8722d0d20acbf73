// Timestamps per hop of a message (issue 38), for the bench's per-hop table and nothing else:
// with LETAGENTS_HOP_TRACE set to a folder, the helper and the app note when a frame, a commit
// or a wake passes each hop, on the monotonic clock every process of the machine shares, and
// write them at exit to <folder>/<role>-<pid>.jsonl. Unset (always, outside a bench run), `hops`
// is null and a hop costs one comparison; nothing is ever written to a log.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HOP_TRACE_ENV = 'LETAGENTS_HOP_TRACE';

/** One noted hop: when (µs on the monotonic clock), where, and what passed (a request's id, a message's number). */
export interface HopMark {
  readonly t: number;
  readonly hop: string;
  readonly key: string;
}

/** Marks kept at most (a bench run makes tens of thousands). */
const MAX_MARKS = 2_000_000;

export class HopTrace {
  private readonly marks: HopMark[] = [];

  constructor(private readonly folder: string, private readonly role: string) {
    process.once('exit', () => this.write());
  }

  /** Notes that `key` passed `hop` now. */
  mark(hop: string, key: string | number): void {
    if (this.marks.length < MAX_MARKS) this.marks.push({ t: nowMicros(), hop, key: String(key) });
  }

  private write(): void {
    if (this.marks.length === 0) return;
    try {
      writeFileSync(join(this.folder, `${this.role}-${process.pid}.jsonl`), this.marks.map((m) => JSON.stringify(m)).join('\n') + '\n');
    } catch {
      // A bench's trace folder that is gone: nothing to keep.
    }
  }
}

/** Microseconds on the monotonic clock (CLOCK_MONOTONIC: the same in every process of the machine). */
export const nowMicros = (): number => Number(process.hrtime.bigint() / 1000n);

const folder = process.env[HOP_TRACE_ENV] || null;
let trace: HopTrace | null | undefined;

/** This process's trace, under `role` ('helper', 'app'), or null when tracing is off. */
export function hopTrace(role: string): HopTrace | null {
  if (trace === undefined) trace = folder ? new HopTrace(folder, role) : null;
  return trace;
}
