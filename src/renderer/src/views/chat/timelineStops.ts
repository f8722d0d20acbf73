// Where ↑/↓, Home and End stop in the timeline: every message drawn, and the line of a folded
// run of room events ("4 board updates"), so a keyboard user reaches and opens it. Events
// folded away are not drawn and are stepped over; an open run's line comes before its first event.

/** One stop: the message of row `index`, or (fold) that row's "N board updates" line. */
export interface Stop {
  readonly index: number;
  readonly fold: boolean;
}

/** The stops of one row, top to bottom (none for an event folded away). */
export type RowStops = (index: number) => readonly Stop[];

const MOVES: Readonly<Record<string, number>> = { ArrowUp: -1, ArrowDown: 1, Home: -Infinity, End: Infinity };

/** The first row's first stop from `index` on, walking in `step` (+1 down, -1 up); its last stop when walking up. */
function nearest(index: number, step: number, count: number, stopsOf: RowStops): Stop | null {
  for (let i = index; i >= 0 && i < count; i += step) {
    const stops = stopsOf(i);
    if (stops.length > 0) return step < 0 ? stops[stops.length - 1] : stops[0];
  }
  return null;
}

/** The stop one step up or down from `from`; `from` itself at either end. */
function nextStop(from: Stop, step: number, count: number, stopsOf: RowStops): Stop {
  const own = stopsOf(from.index);
  const at = own.findIndex((stop) => stop.fold === from.fold) + step;
  if (at >= 0 && at < own.length) return own[at];
  return nearest(from.index + step, step, count, stopsOf) ?? from;
}

/** The stop the focused element is (a message or a fold line), or null when it is neither. */
function stopOf(target: HTMLElement): Stop | null {
  const fold = target.matches('.event-fold');
  if (!fold && !target.matches('[data-number]')) return null;
  const row = target.closest<HTMLElement>('[data-index]');
  return row ? { index: Number(row.dataset.index), fold } : null;
}

/** The element to focus for a stop, once its row is drawn. */
export function stopElement(scroller: HTMLElement | null, stop: Stop): HTMLElement | null {
  return scroller?.querySelector<HTMLElement>(`[data-index="${stop.index}"] ${stop.fold ? '.event-fold' : '[data-number]'}`) ?? null;
}

/**
 * The stop a key moves focus to, or null when the key is not a move here. From the timeline
 * itself, ↑ starts at the last stop on screen and ↓ at the first; keys pressed on a control
 * inside a message (a link, a button) keep their own meaning.
 */
export function keyboardTarget(event: React.KeyboardEvent, scroller: HTMLElement | null, count: number, stopsOf: RowStops): Stop | null {
  const step = MOVES[event.key];
  const target = event.target as HTMLElement;
  if (step === undefined || !scroller || count === 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const from = stopOf(target);
  if (!from && target !== scroller) return null;
  if (!Number.isFinite(step)) return step < 0 ? nearest(0, 1, count, stopsOf) : nearest(count - 1, -1, count, stopsOf);
  if (from) return nextStop(from, step, count, stopsOf);
  const box = scroller.getBoundingClientRect();
  const shown = [...scroller.querySelectorAll<HTMLElement>('[data-index]')].filter((row) => {
    const r = row.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom;
  });
  const edge = step < 0 ? shown[shown.length - 1] : shown[0];
  const start = edge ? Number(edge.dataset.index) : step < 0 ? count - 1 : 0;
  return nearest(start, step, count, stopsOf) ?? nearest(start, -step, count, stopsOf);
}
