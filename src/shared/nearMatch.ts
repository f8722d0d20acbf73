// "Did you mean …?": the known names nearest to what someone typed (a room name, a command,
// an option), by edit distance, ignoring case. Used by the command line and by join_room.

/** Levenshtein distance with transpositions counted as one edit (design-revew ↔ design-review: 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** How far a typo may be from the name it meant: 1 edit for short names, up to 3 for long ones. */
export function typoLimit(name: string): number {
  return name.length <= 4 ? 1 : name.length <= 10 ? 2 : 3;
}

/**
 * The known names within a typo of `typed` (not `typed` itself), nearest first, at most `max`.
 * Case is ignored: `Design-Review` is not a typo of `design-review` but the same name.
 */
export function nearMatches(typed: string, known: Iterable<string>, max = 3): string[] {
  const wanted = typed.toLowerCase();
  const limit = typoLimit(wanted);
  const found: Array<{ name: string; distance: number }> = [];
  for (const name of known) {
    const candidate = name.toLowerCase();
    if (candidate === wanted) continue;
    // Cheap bound first: lengths further apart than the limit cannot be within it.
    if (Math.abs(candidate.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, candidate);
    if (distance <= limit) found.push({ name, distance });
  }
  return found.sort((x, y) => x.distance - y.distance || x.name.localeCompare(y.name)).slice(0, max).map((f) => f.name);
}

/**
 * Whether `typed` reads as a slip of the keyboard for `known`, strictly enough to refuse creating
 * it: the names split into the same words (at - _ . / : and spaces), exactly one word differs,
 * that word has 4 or more characters on both sides and is within a typo. So `design-revew` is a
 * slip for `design-review`, but `case-3` beside `case-1`, `api-v2` beside `api-v1` or `team-a`
 * beside `team-b` are names of their own.
 */
export function isLikelyTypo(typed: string, known: string): boolean {
  const words = (name: string) => name.toLowerCase().split(/[-_./: ]+/);
  const a = words(typed);
  const b = words(known);
  if (a.length !== b.length) return false;
  const differing = a.flatMap((word, i) => (word === b[i] ? [] : [[word, b[i]] as const]));
  if (differing.length !== 1) return false;
  const [x, y] = differing[0];
  if (x.length < 4 || y.length < 4 || /^\d+$/.test(x) || /^\d+$/.test(y)) return false;
  return editDistance(x, y) <= typoLimit(x);
}
