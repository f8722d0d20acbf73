// A moment in the one format of lib/time (relative within a day, then date and time), with
// the exact time on hover. It keeps itself current: one shared clock ticks every 20 s, and
// a time re-renders only when its words change, so a long timeline costs nothing per tick.
import { useSyncExternalStore } from 'react';
import { exactTime, formatTime, formatUntil } from '../lib/time';

const TICK_MS = 20_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    now = Date.now();
    for (const l of [...listeners]) l();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The shared clock; while nothing listened it stood still, so it catches up first. */
function currentNow(): number {
  if (!timer && Date.now() - now > 1000) now = Date.now();
  return now;
}

/** `iso` in the one format (`until`: as a deadline, "in 10 min"), kept current as time passes. */
export function useTimeText(iso: string, until = false): string {
  return useSyncExternalStore(subscribe, () => (until ? formatUntil : formatTime)(iso, currentNow()));
}

export function Time({ iso, className, prefix = '', until = false }: { iso: string; className?: string; prefix?: string; until?: boolean }) {
  const text = useTimeText(iso, until);
  return (
    <time className={className} dateTime={iso} title={exactTime(iso)}>
      {prefix}
      {text}
    </time>
  );
}
