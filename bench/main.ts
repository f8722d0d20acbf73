// The benchmark runner: runs the chosen figures (all by default) one after another,
// prints the table, writes bench/results/latest.json, and always cleans up the
// processes and temp folders it made. Timings are reported, never asserted. A figure that
// fails or passes its time limit is reported as such and the run goes on.
// Options: `--baseline <commit or folder>` measures that build beside this one in B1, B3 and
// B10; `--hops` adds their per-hop tables (issue 38).
import { loadavg } from 'node:os';
import { baselineBuild } from './lib/builds';
import type { BenchContext, Figure, FigureResult } from './lib/figure';
import { cleanup, endProcesses } from './lib/processes';
import { printTable, writeResults } from './lib/report';
import { collectGarbage } from './lib/stats';
import { figures } from './figures';

/** The whole run stays under 10 minutes; a figure that would start past this is skipped. */
const RUN_BUDGET_MS = 9 * 60_000;
/** A figure's time limit unless it sets its own. */
const FIGURE_LIMIT_MS = 5 * 60_000;

export async function main(argv: string[]): Promise<number> {
  const { ids, baseline, hops } = parseOptions(argv);
  const wanted = ids.map((a) => a.toUpperCase());
  const unknown = wanted.filter((id) => !figures.some((f) => f.id === id));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown figure ${unknown.join(', ')}; known: ${figures.map((f) => f.id).join(' ')}\n`);
    return 2;
  }
  const chosen = wanted.length === 0 ? figures : figures.filter((f) => wanted.includes(f.id));
  const log = (line: string) => process.stderr.write(`  ${line}\n`);
  let ctx: BenchContext;
  try {
    ctx = {
      largeMessages: Number(process.env.BENCH_LARGE_MESSAGES ?? 1_000_000),
      baseline: baseline === null ? null : baselineBuild(baseline, log),
      hops,
      log,
    };
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n`);
    return 2;
  }
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const started = performance.now();
  const loadBefore = loadavg()[0];
  const results: FigureResult[] = [];
  try {
    for (const figure of chosen) {
      const elapsed = performance.now() - started;
      if (elapsed > RUN_BUDGET_MS) {
        results.push(skipped(figure, `the run's ${RUN_BUDGET_MS / 60_000}-minute budget was used up`));
        continue;
      }
      process.stderr.write(`${figure.id}: ${figure.what}\n`);
      results.push(...(await runFigure(figure, ctx)));
    }
  } finally {
    await cleanup();
  }
  const totalSeconds = (performance.now() - started) / 1000;
  process.stdout.write('\n');
  printTable(results, (line) => process.stdout.write(`${line}\n`));
  const load = { before: loadBefore, after: loadavg()[0] };
  const path = writeResults(results, totalSeconds, load);
  process.stdout.write(
    `\n${results.length} row(s) in ${totalSeconds.toFixed(0)} s; 1-minute load average ${load.before.toFixed(1)} before, ${load.after.toFixed(1)} after` +
      ` (other work on the machine skews absolute figures; ratios are measured side by side)\nwritten to ${path}\n`,
  );
  return 0;
}

function parseOptions(argv: string[]): { ids: string[]; baseline: string | null; hops: boolean } {
  const ids: string[] = [];
  let baseline: string | null = null;
  let hops = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--hops') hops = true;
    else if (argv[i] === '--baseline') baseline = argv[++i] ?? null;
    else if (argv[i].startsWith('--baseline=')) baseline = argv[i].slice('--baseline='.length);
    else ids.push(argv[i]);
  }
  return { ids, baseline, hops };
}

async function runFigure(figure: Figure, ctx: BenchContext): Promise<FigureResult[]> {
  const figureStarted = performance.now();
  const limitMs = figure.timeLimitMs ?? FIGURE_LIMIT_MS;
  let timer: NodeJS.Timeout | undefined;
  const overTime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it took longer than its limit of ${Math.round(limitMs / 60_000)} minutes`)), limitMs);
  });
  try {
    const outcome = await Promise.race([figure.run(ctx), overTime]);
    const seconds = (performance.now() - figureStarted) / 1000;
    return (Array.isArray(outcome) ? outcome : [outcome]).map((row) => ({ id: figure.id, what: figure.what, target: figure.target, ...row, seconds }));
  } catch (error) {
    process.stderr.write(`  ${figure.id} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    return [skipped(figure, `failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, figureStarted)];
  } finally {
    clearTimeout(timer);
    // Figures clean up after themselves; a failure or an overrun leaves its processes to this.
    if (performance.now() - figureStarted >= limitMs) await endProcesses();
    collectGarbage();
  }
}

function skipped(figure: Figure, reason: string, since = performance.now()): FigureResult {
  return {
    id: figure.id, what: figure.what, target: figure.target,
    ours: null, floor: null, ratio: null, met: null, notes: [], notMeasured: reason,
    seconds: (performance.now() - since) / 1000,
  };
}
