// Summaries of timing samples: runs, median and p99 (nearest-rank), plus clock helpers and
// sampling in alternating blocks.

export interface Summary {
  readonly runs: number;
  readonly median: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

/** Nearest-rank percentile (p in 0–100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) return { runs: 0, median: Number.NaN, p99: Number.NaN, min: Number.NaN, max: Number.NaN, mean: Number.NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return {
    runs: sorted.length,
    median,
    p99: percentile(sorted, 99),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
  };
}

/** Milliseconds (fractional) taken by `fn`. */
export async function timed(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Samples of each `measure` (a number per call, e.g. `() => timed(call)`), taken in alternating
 * blocks of `perBlock` calls, `blocks` times over, so machine noise hits every one alike.
 */
export async function alternatingBlocks(blocks: number, perBlock: number, measures: ReadonlyArray<() => Promise<number>>): Promise<number[][]> {
  const samples = measures.map((): number[] => []);
  for (let block = 0; block < blocks; block++) {
    for (const [i, measure] of measures.entries()) {
      for (let n = 0; n < perBlock; n++) samples[i].push(await measure());
    }
  }
  return samples;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A full garbage collection between measured blocks (`npm run bench` runs node with --expose-gc). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
