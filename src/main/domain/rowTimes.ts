// A time a stored row holds, as milliseconds. A team row may hold any text there (whoever has
// the team's URL writes rows), and Date.parse gives NaN for it: a timer set from NaN fires at
// once and a window measured from it never closes, so an unreadable time counts as `fallback`.

/** `iso` in milliseconds; `fallback` (usually now) when it is not a time. */
export function timeOf(iso: string | null | undefined, fallback: number): number {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(ms) ? ms : fallback;
}
