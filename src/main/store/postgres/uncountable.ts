// Integers a team row may hold that no JS number holds exactly (issue 32 item 7): whoever has the
// team's URL can write any value, e.g. a room's next_message_number of 2^53 + 1. pgTypes parses
// such a value as Uncountable instead of failing the whole query; the rows holding one are left
// out of what the app reads, so one room's forged row never fails a query over every room (the
// sidebar, search, Needs you, the poll), and each room and column is said once in the log.

/** An int8 value beyond ±(2^53 − 1), as PostgreSQL sent it. */
export class Uncountable {
  constructor(readonly text: string) {}
}

/** Distinct room and column pairs said at most; then one last line says the rest are not. */
const MAX_SAID = 100;

export class UncountableRows {
  private readonly said = new Set<string>();

  constructor(
    private readonly place: string,
    private readonly log: (line: string) => void = (line) => console.warn(line),
  ) {}

  /** `rows` without those holding an Uncountable value (the same array when none does). */
  keep<T>(rows: T[]): T[] {
    if (!rows.some(holdsUncountable)) return rows;
    return rows.filter((row) => {
      const entry = Object.entries(row as Record<string, unknown>).find(([, value]) => value instanceof Uncountable);
      if (!entry) return true;
      const roomId = (row as { room_id?: unknown }).room_id;
      this.report(typeof roomId === 'string' ? roomId : null, entry[0], (entry[1] as Uncountable).text);
      return false;
    });
  }

  /** Says once per room and column that a row holds `text` in `column` and is left out. */
  report(roomId: string | null, column: string, text: string): void {
    const key = `${roomId ?? ''}\n${column}`;
    if (this.said.has(key) || this.said.size > MAX_SAID) return;
    this.said.add(key);
    const where = roomId === null ? 'a row' : `room "${roomId}"`;
    this.log(
      `team "${this.place}": ${where} holds ${column} = ${text.slice(0, 40)}, beyond what this app counts exactly (2^53); ` +
        'rows holding such a value are left out of what it reads and polls (written by someone with the team\'s URL; said once).',
    );
    if (this.said.size > MAX_SAID) this.log(`team "${this.place}": more rows hold values beyond 2^53; they are left out without a word.`);
  }
}

function holdsUncountable(row: unknown): boolean {
  for (const value of Object.values(row as Record<string, unknown>)) if (value instanceof Uncountable) return true;
  return false;
}
