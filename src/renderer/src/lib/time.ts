// Times as people read them, one format everywhere: relative within a day ("just now",
// "5 min ago", "3 h ago"; ahead: "in 10 min"), then date and time ("Mar 4, 14:05"); the exact time is for
// hovering (components/Time.tsx). Day dividers in the chat say "Today", "Yesterday", a date.

const DAY_MS = 86_400_000;

/** The one short form of a moment, relative to `now`. */
export function formatTime(iso: string, now: number = Date.now()): string {
  const at = new Date(iso);
  const ago = now - at.getTime();
  // A moment ahead reads as one (a deadline); a little ahead (another clock) still reads as now.
  if (ago <= -45_000) return formatUntil(iso, now);
  if (ago < 45_000) return 'just now';
  if (ago < 3_600_000) return `${Math.max(1, Math.round(ago / 60_000))} min ago`;
  if (ago < DAY_MS) return `${Math.floor(ago / 3_600_000)} h ago`;
  const sameYear = at.getFullYear() === new Date(now).getFullYear();
  return at.toLocaleString(undefined, { month: 'short', day: 'numeric', year: sameYear ? undefined : 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * How long until a moment ahead (issue 35: a deadline 10 minutes away read "just now"): "in 10 min",
 * "in 3 h", "in under a minute"; "now" once it has come; a date beyond a day.
 */
export function formatUntil(iso: string, now: number = Date.now()): string {
  const at = new Date(iso);
  const ahead = at.getTime() - now;
  if (ahead <= 0) return 'now';
  if (ahead < 60_000) return 'in under a minute';
  if (ahead < 3_600_000) return `in ${Math.round(ahead / 60_000)} min`;
  if (ahead < DAY_MS) return `in ${Math.floor(ahead / 3_600_000)} h`;
  return `on ${at.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })}`;
}

/** A moment on the clock: "14:00" today, else with its day ("Mon, May 4, 14:00"). */
export function formatAt(iso: string, now: number = Date.now()): string {
  const at = new Date(iso);
  const clock = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === new Date(now).toDateString()) return clock;
  return at.toLocaleString(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** The exact moment, for a tooltip: "Tuesday, 4 March 2026 at 14:05:12". */
export function exactTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'medium' });
}

/** A moment as a clock reads it: "14:05" today, "Mar 5, 09:00" another day (a snooze's or a pairing code's end). */
export function formatClock(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  const today = at.toDateString() === now.toDateString();
  return today ? at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : at.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * "14:05:12": when an agent got a message (receipts), the one place that needs the second:
 * the receipts of one message are moments apart, which the relative form calls "just now".
 */
export function formatClockSeconds(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function formatDay(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  const startOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOf(now) - startOf(date)) / DAY_MS);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return date.toLocaleDateString(undefined, { weekday: 'long', month: 'long', day: 'numeric', year: date.getFullYear() === now.getFullYear() ? undefined : 'numeric' });
}

/** Seconds as a countdown reads them: "1:12", "0:05". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
