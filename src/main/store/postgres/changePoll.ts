// The wake-up fallback when LISTEN does not deliver (a transaction-mode pooler and no direct
// endpoint): each poll is one statement that asks the team database which rooms changed since the
// last poll. Its work is bounded by what changed, never by how many rooms there are (issue 32 item
// 14: 20,000 forged empty rooms once cost a polling app 9.4 s of database CPU a minute): every row
// a poll watches carries the id of the transaction that last changed it (changed_xid, kept by
// triggers: migrations 010 and 016) under an index, so a poll reads only the rows written by
// transactions it has not seen: those at or past the end of the last poll's snapshot, and those
// still running then (the snapshot's in-progress list), which may have committed since. Each such
// read is capped; more changed rooms than a poll examines is one re-check of the team. A room's
// cursor is its message counter (numbered without gaps, committed in order, since each send updates
// the room's row) and a stamp of its other counters and names. New messages become the hints
// another app's NOTIFY would have given (one per number, so waiters and pushes of that room only
// are woken); any other change (tasks, agents, managed agents joining, pausing or leaving, facts,
// requests, "Needs you" items), a new or removed room, or more messages than a hint burst holds, is
// one "re-check this team" signal (as after a reconnect). A pass on an @all (a no_replies row) is
// the turn hint another app's NOTIFY would have given: the room's waiters look again at once. A counter no JS number holds exactly (a
// forged row) is left out and reported once.
import type pg from 'pg';
import type { SqlValue } from '../port';

/** Rooms a poll examines at most: more changed rooms is one re-check, and the next poll goes on from there. */
const MAX_ROOMS = 200;
/** Rooms the first poll learns the cursors of (once): the most recently changed; any other re-checks the team when it next changes. */
const MAX_SEED_ROOMS = 100_000;
/** New messages of a room passed on one hint each; more become one re-check (the coalescer holds 16 keys a room). */
const MAX_MESSAGE_HINTS = 16;

/** The tables whose changes a poll notices, each with its changed_xid index (migrations 010 and 016). */
const WATCHED = ['rooms', 'tasks', 'agent_sessions', 'room_facts', 'human_requests', 'needs_you_alerts', 'managed_members'] as const;

/** Passes on an @all (issue 34 item 2), each with the broadcast's number: a turn hint, not a re-check. */
const PASSES = 'no_replies';

/** Where a removed row leaves its room's id (a removed room, a managed agent that left it), with the remover's transaction. */
const DEPARTED = [['room_deletions', 'deleted_xid'], ['member_departures', 'departed_xid']] as const;

/** A room's counters and names other than its message counter, in one short stamp. */
const STAMP = `md5(ROW(r.next_task_number, r.next_fact_number, r.next_request_number, r.next_artifact_number, r.next_alert_number,
  r.display_name, r.archived_at, r.pinned_at)::text)`;

/**
 * The window row: where the next poll starts (the end of this statement's snapshot, and the
 * transactions still running in it), and whether this poll met more changes than it examines.
 */
const WINDOW_ROW = (overflow: string) => `SELECT NULL::text AS room_id, NULL::text AS next_message, NULL::text AS stamp, NULL::boolean AS others,
  NULL::text AS passed_first, NULL::text AS passed_last,
  pg_snapshot_xmax(s.snap)::text AS upto, array_to_string(ARRAY(SELECT pg_snapshot_xip(s.snap)), ',') AS open, ${overflow} AS overflow
  FROM (SELECT pg_current_snapshot() AS snap) s`;

/** The rows of `table` changed by transactions this app has not seen ($1 upto of the last poll, $2 its open list), capped at $3 each way. */
const changedRows = (table: string, column: string, number = 'NULL::bigint') => [
  `(SELECT '${table}:new' AS src, room_id, ${number} AS number FROM ${table}
     WHERE ${column} >= $1::xid8 AND ${column} < (SELECT pg_snapshot_xmax(pg_current_snapshot())) ORDER BY ${column} LIMIT $3)`,
  `(SELECT '${table}:open', room_id, ${number} FROM ${table} WHERE ${column} = ANY($2::xid8[]) LIMIT $3)`,
];

// A changed room comes back with its counter and stamp (NULL when it is gone), and whether
// anything but its own row and passes changed, and the broadcasts passed on (first and last); the
// window row last. A forged changed_xid beyond the
// snapshot's end is not read until the server's transactions reach it, and then once.
export const CHANGED_ROOMS_SQL = `
WITH hits AS (
  ${[
    ...WATCHED.flatMap((table) => changedRows(table, 'changed_xid')),
    ...changedRows(PASSES, 'changed_xid', 'message_number'),
    ...DEPARTED.flatMap(([table, column]) => changedRows(table, column)),
  ].join('\n  UNION ALL ')}
),
touched AS (
  SELECT room_id, bool_or(src NOT LIKE 'rooms:%' AND src NOT LIKE '${PASSES}:%') AS others,
    min(number)::text AS passed_first, max(number)::text AS passed_last
  FROM hits GROUP BY room_id ORDER BY room_id LIMIT $3
)
SELECT t.room_id, r.next_message, r.stamp, t.others, t.passed_first, t.passed_last, NULL AS upto, NULL AS open, NULL::boolean AS overflow
  FROM touched t LEFT JOIN LATERAL (
    SELECT r.next_message_number::text AS next_message, ${STAMP} AS stamp FROM rooms r WHERE r.room_id = t.room_id
  ) r ON true
UNION ALL
${WINDOW_ROW(`(SELECT count(*) FROM touched) >= $3 OR EXISTS (SELECT 1 FROM hits GROUP BY src HAVING count(*) >= $3)`)}`;

/** The first poll: the cursors of the most recently changed rooms ($1 of them), and the window. */
export const SEED_ROOMS_SQL = `
SELECT r.room_id, r.next_message_number::text AS next_message, ${STAMP} AS stamp, false AS others,
  NULL AS passed_first, NULL AS passed_last, NULL AS upto, NULL AS open, NULL::boolean AS overflow
  FROM (SELECT * FROM rooms ORDER BY changed_xid DESC NULLS LAST LIMIT $1) r
UNION ALL
${WINDOW_ROW('false')}`;

interface RoomCursor {
  nextMessage: number;
  stamp: string;
}

/** Which transactions the next poll reads the changes of. */
interface Window {
  /** The end of the last poll's snapshot: transactions from here on are new. */
  upto: string;
  /** Transactions still running at the last poll: what they wrote was not visible then. */
  open: string[];
}

type PollRow = {
  room_id: string | null;
  next_message: string | null;
  stamp: string | null;
  others: number | null;
  /** The first and last broadcast of the room passed on since the last poll (null when none). */
  passed_first: string | null;
  passed_last: string | null;
  upto: string | null;
  open: string | null;
  overflow: number | null;
};

export interface ChangePollOptions {
  /** One statement on a pooled connection. */
  query(text: string, values: SqlValue[]): Promise<pg.QueryResult>;
  /** A new message of another app in `roomId` (a hint, as its NOTIFY would have given). */
  onMessage(roomId: string, number: number): void;
  /** Something else changed (or too much to say): re-check everything of the team. */
  onRecheck(): void;
  /** Someone passed on broadcasts `first`..`last` of `roomId`: a turn moved (as another app's turn hint would say). */
  onTurn(roomId: string, first: number, last: number): void;
  /** A room's counter no JS number holds exactly: the room is left out of the poll (say it once). */
  onUncountable?(roomId: string, column: string, text: string): void;
}

/** What the poll has cost so far: `doctor`, tests and benchmarks read it. */
export interface PollCounts {
  polls: number;
  /** Changed rooms the polls examined (the first poll's learned rooms not counted): 0 for a quiet team. */
  rows: number;
  messageHints: number;
  turnHints: number;
  rechecks: number;
}

export class ChangePoll {
  /** Per room, for the rooms seen so far. */
  private readonly cursors = new Map<string, RoomCursor>();
  /** Null until the first poll (which re-checks everything once: hints may have been missed). */
  private window: Window | null = null;
  private running: Promise<void> | null = null;
  readonly counts: PollCounts = { polls: 0, rows: 0, messageHints: 0, turnHints: 0, rechecks: 0 };

  constructor(private readonly options: ChangePollOptions) {}

  /** One poll (a poll still running is awaited instead of overlapping). */
  poll(): Promise<void> {
    return (this.running ??= this.pollOnce().finally(() => (this.running = null)));
  }

  /** Forgets the cursors: the next poll is a first one again (after LISTEN delivered for a while, or a reconnect). */
  reset(): void {
    this.window = null;
    this.cursors.clear();
  }

  private async pollOnce(): Promise<void> {
    const window = this.window;
    const result = window
      ? await this.options.query(CHANGED_ROOMS_SQL, [window.upto, window.open, MAX_ROOMS + 1] as unknown as SqlValue[])
      : await this.options.query(SEED_ROOMS_SQL, [MAX_SEED_ROOMS]);
    const rows = result.rows as PollRow[];
    const last = rows.at(-1);
    if (!last || last.room_id !== null || last.upto === null) throw new Error('The poll statement returned no window row.');
    this.counts.polls++;
    if (!window) {
      this.cursors.clear();
      for (const row of rows.slice(0, -1)) this.learn(row);
    }
    let recheck = !window || last.overflow === 1;
    if (window) {
      for (const row of rows.slice(0, -1)) if (this.changed(row)) recheck = true;
    }
    this.window = { upto: last.upto, open: last.open ? last.open.split(',') : [] };
    if (recheck) {
      this.counts.rechecks++;
      this.options.onRecheck();
    }
  }

  /** Notes a room's cursor; its held one before (undefined when new or uncountable). */
  private learn(row: PollRow): { held: RoomCursor | undefined; now: RoomCursor | null } {
    const roomId = row.room_id!;
    const held = this.cursors.get(roomId);
    const nextMessage = Number(row.next_message);
    if (row.next_message === null || row.stamp === null || !Number.isSafeInteger(nextMessage)) {
      this.cursors.delete(roomId);
      if (row.next_message !== null) this.options.onUncountable?.(roomId, 'next_message_number', row.next_message);
      return { held, now: null };
    }
    const now = { nextMessage, stamp: row.stamp };
    this.cursors.set(roomId, now);
    return { held, now };
  }

  /** Passes on one changed room: its message hints; true when the team needs a re-check instead. */
  private changed(row: PollRow): boolean {
    this.counts.rows++;
    const { held, now } = this.learn(row);
    if (now) this.passed(row);
    // Gone (a re-check), or a counter this app cannot count (left out, said once).
    if (!now) return row.next_message === null;
    if (!held || row.others === 1 || held.stamp !== now.stamp) return true;
    const fresh = now.nextMessage - held.nextMessage;
    if (fresh > MAX_MESSAGE_HINTS) return true;
    for (let n = held.nextMessage; n < now.nextMessage; n++) {
      this.counts.messageHints++;
      this.options.onMessage(row.room_id!, n);
    }
    return false;
  }

  /** A pass moved a turn of the room: its waiters look again now, not at the turn's deadline. */
  private passed(row: PollRow): void {
    const first = Number(row.passed_first ?? NaN);
    const last = Number(row.passed_last ?? NaN);
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last)) return;
    this.counts.turnHints++;
    this.options.onTurn(row.room_id!, first, last);
  }
}
