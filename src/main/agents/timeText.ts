// A moment as people read it in a sentence the app writes ("resumes after 14:00", "last at
// Tue 09:00"): the 24-hour time in the person's time zone, with the weekday (and date when it
// is further off) when it is not today.

export function timeText(atMs: number, nowMs: number, timeZone?: string): string {
  const zone = timeZone ? { timeZone } : {};
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...zone }).format(atMs);
  const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...zone }).format(ms);
  if (day(atMs) === day(nowMs)) return time;
  const withinAWeek = Math.abs(atMs - nowMs) < 6 * 24 * 3_600_000;
  const date = new Intl.DateTimeFormat('en-GB', withinAWeek ? { weekday: 'short', ...zone } : { weekday: 'short', day: 'numeric', month: 'short', ...zone }).format(atMs);
  return `${date} ${time}`;
}
