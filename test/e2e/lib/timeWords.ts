// The words a page's <Time> may show for a moment, computed with the app's own lib/time from the
// moment the app reported: a test reads the page some seconds after the moment was made (longer on
// a loaded machine), and the page's shared clock moves every 20 s (components/Time.tsx), so a fixed
// "in 15 min" or "just now" fails once that lag crosses a rounding boundary.
import { formatTime, formatUntil } from '../../../src/renderer/src/lib/time';

/** How far the page's shared clock may lag the wall clock (its tick, components/Time.tsx), plus a second. */
const PAGE_CLOCK_LAG_MS = 21_000;

/**
 * Every text a <Time iso={iso} until={until} /> may show when read between `fromMs` and `toMs`
 * (Date.now() taken just before and just after reading it).
 */
export function timeWordsBetween(iso: string, fromMs: number, toMs: number, { until = false } = {}): string[] {
  const format = until ? formatUntil : formatTime;
  const words = new Set<string>();
  for (let t = fromMs - PAGE_CLOCK_LAG_MS; t < toMs; t += 1_000) words.add(format(iso, t));
  words.add(format(iso, toMs));
  return [...words];
}
