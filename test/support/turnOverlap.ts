// Managed turns that ran at the same time, from the turn log's start and end times (issue 34:
// an @all answered in turn gives turns that never overlap; the e2e test and B20 count them).

/** A turn as the turn log shows it (TurnView): ISO start, ISO end (null while running). */
export interface TimedTurn {
  readonly number: number;
  readonly startedAt: string;
  readonly endedAt: string | null;
}

/** How many pairs of these turns overlapped in time (a running turn lasts until now). */
export function overlappingTurns(turns: readonly TimedTurn[]): number {
  const spans = turns.map((t) => [Date.parse(t.startedAt), t.endedAt ? Date.parse(t.endedAt) : Date.now()] as const);
  let pairs = 0;
  for (let i = 0; i < spans.length; i++) {
    for (let j = i + 1; j < spans.length; j++) if (spans[i][0] < spans[j][1] && spans[j][0] < spans[i][1]) pairs++;
  }
  return pairs;
}
