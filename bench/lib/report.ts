// The figures as a printed table, a Markdown table (for the README) and
// bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, totalmem } from 'node:os';
import type { FigureResult, Measured } from './figure';
import { generatedDataSets } from './datasets';
import { repoRoot } from './processes';

const HEADERS = ['#', 'runs', 'median', 'p99', 'floor / reference (median)', 'ratio', 'target', 'result'];

function num(value: number, unit: string): string {
  if (!Number.isFinite(value)) return '—';
  const digits = unit === 'ms' ? (value < 10 ? 2 : value < 100 ? 1 : 0) : unit === 'MB' ? 1 : 0;
  return `${value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
}

function measured(m: Measured | null, pick: 'median' | 'p99'): string {
  return m ? num(m[pick], m.unit) : '—';
}

function verdict(r: FigureResult): string {
  if (r.notMeasured) return 'not measured';
  return r.met === null ? '—' : r.met ? 'met' : 'MISSED';
}

export function rows(results: readonly FigureResult[]): string[][] {
  return results.map((r) => [
    r.id,
    r.ours ? String(r.ours.runs) : '—',
    measured(r.ours, 'median'),
    measured(r.ours, 'p99'),
    r.floor ? `${num(r.floor.median, r.floor.unit)} (${r.floor.label})` : '—',
    r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`,
    r.target,
    verdict(r),
  ]);
}

export function printTable(results: readonly FigureResult[], write: (line: string) => void): void {
  const body = rows(results);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  write(line(HEADERS));
  write(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) write(line(row));
  write('');
  for (const r of results) {
    write(`${r.id}  ${r.what}${r.ours ? ` — ${r.ours.label}` : ''}`);
    if (r.notMeasured) write(`    not measured: ${r.notMeasured}`);
    for (const note of r.notes) write(`    ${note}`);
  }
}

export function markdownTable(results: readonly FigureResult[]): string {
  const body = rows(results);
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `| ${HEADERS.join(' | ')} |`,
    `|${HEADERS.map(() => '---').join('|')}|`,
    ...body.map((row) => `| ${row.map(esc).join(' | ')} |`),
  ].join('\n');
}

export function writeResults(results: readonly FigureResult[], totalSeconds: number, loadAverage: { before: number; after: number }): string {
  const dir = join(repoRoot, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'latest.json');
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: process.platform,
    load_average_1m: loadAverage,
  };
  writeFileSync(path, `${JSON.stringify({ finished_at: new Date().toISOString(), total_seconds: totalSeconds, machine, data_sets: generatedDataSets(), figures: results, markdown: markdownTable(results) }, null, 2)}\n`);
  return path;
}
