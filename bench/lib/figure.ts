// What a figure is and what it reports: our path, the floor measured in the same run,
// the ratio between them, the target, and whether it was met.
import type { Build } from './builds';
import type { Summary } from './stats';

export interface Measured extends Summary {
  /** What was measured, in words. */
  readonly label: string;
  /** Unit of median and p99 ("ms", "MB", "msg/s"). */
  readonly unit: string;
}

export interface FigureResult {
  readonly id: string;
  readonly what: string;
  readonly ours: Measured | null;
  /** The floor (or, for figures without one, a reference) measured in the same run. */
  readonly floor: Measured | null;
  /** ours ÷ floor, in the direction the target reads (see `ratioNote`). */
  readonly ratio: number | null;
  readonly target: string;
  /** null when not measured. */
  readonly met: boolean | null;
  /** Extra facts worth reading next to the figure (data set size, generation time, …). */
  readonly notes: string[];
  /** Set when the figure could not be measured. */
  readonly notMeasured?: string;
  readonly seconds: number;
}

/** Shared per run: data sets are generated once and reused by every figure that needs them. */
export interface BenchContext {
  /** Messages of the large room (1 000 000 by default; BENCH_LARGE_MESSAGES overrides for a quick try). */
  readonly largeMessages: number;
  /** `--baseline <commit or folder>`: B1, B3 and B10 also measure that build, side by side (builds.ts). */
  readonly baseline: Build | null;
  /** `--hops`: B1, B3 and B10 trace each hop and add the per-hop table to their notes (hops.ts). */
  readonly hops: boolean;
  log(line: string): void;
}

/** What a figure's run gives back for one row; id, what and target default to the figure's. */
export type FigureOutcome = Omit<FigureResult, 'id' | 'what' | 'target' | 'seconds'> & Partial<Pick<FigureResult, 'id' | 'what' | 'target'>>;

export interface Figure {
  readonly id: string;
  readonly what: string;
  readonly target: string;
  /** One row, or several when the issue gives the figure several targets (B8). */
  run(ctx: BenchContext): Promise<FigureOutcome | FigureOutcome[]>;
  /** Longer than this and the figure is reported as failed and the run goes on (default 10 minutes). */
  readonly timeLimitMs?: number;
}
