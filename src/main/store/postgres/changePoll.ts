// The wake-up fallback when LISTEN does not deliver (a transaction-mode pooler and no direct
// endpoint): each poll is one statement that asks the team database which rooms changed since
// the last poll and returns only those rows (at most MAX_ROOMS; the rest come next poll). A
// room's cursor is what every write already keeps: its message counter (numbered without gaps,
// committed in order, since each send updates the room's row) and a stamp of its other
// counters and names and of its tasks, sessions (their binding epochs too), facts, requests
// and "Needs you" items, computed in the database. New messages become the same hints another app's
// NOTIFY would have given (one per number, so waiters and pushes of that room only are woken);
// any other change, a new or removed room, or more messages than a hint burst holds, is one
// "re-check this team" signal (as after a reconnect). A poll with no change returns no row.
import type pg from 'pg';
import type { SqlValue } from '../port';

/** Rooms a poll returns at most: the rest keep their old cursor and come in the next poll. */
const MAX_ROOMS = 200;
/** New messages of a room passed on one hint each; more become one re-check (the coalescer holds 16 keys a room). */
const MAX_MESSAGE_HINTS = 16;

// A room's other rows are summed as hashes, not taken by their newest updated_at: a write
// stamps the time its transaction began, so one that began earlier may commit after a later one.
const rowsHash = (table: string, columns: string) => `(SELECT concat(count(*), ':', sum(hashtext(concat_ws('|', ${columns}))))
  FROM ${table} x WHERE x.room_id = r.room_id)`;
const STAMP = `concat_ws('/', r.next_task_number, r.next_fact_number, r.next_request_number, r.next_artifact_number,
  r.display_name, r.archived_at, r.pinned_at,
  ${rowsHash('tasks', 'x.number, x.status, x.updated_at')},
  ${rowsHash('agent_sessions', 'x.session_id, x.updated_at, x.binding_epoch, x.host_id, x.released_at, x.ended_at')},
  ${rowsHash('room_facts', 'x.number, x.updated_at')},
  ${rowsHash('human_requests', 'x.number, x.updated_at')},
  ${rowsHash('needs_you_alerts', 'x.number, x.updated_at')})`;

// `unnest` pairs the cursors this app sends (room, next message number, stamp); rooms whose
// row differs, and cursor rooms that are gone (next number NULL), come back.
export const CHANGED_ROOMS_SQL = `
WITH cursor AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[]) AS c(room_id, next_message, stamp)),
now AS (SELECT r.room_id, r.next_message_number AS next_message, ${STAMP} AS stamp FROM rooms r)
SELECT n.room_id, n.next_message, n.stamp FROM now n LEFT JOIN cursor c ON c.room_id = n.room_id
  WHERE c.room_id IS NULL OR c.next_message <> n.next_message OR c.stamp <> n.stamp
UNION ALL
SELECT c.room_id, NULL, NULL FROM cursor c WHERE NOT EXISTS (SELECT 1 FROM rooms r WHERE r.room_id = c.room_id)
ORDER BY 1 LIMIT $4`;

interface RoomCursor {
  nextMessage: number;
  stamp: string;
}

export interface ChangePollOptions {
  /** One statement on a pooled connection. */
  query(text: string, values: SqlValue[]): Promise<pg.QueryResult>;
  /** A new message of another app in `roomId` (a hint, as its NOTIFY would have given). */
  onMessage(roomId: string, number: number): void;
  /** Something else changed (or too much to say): re-check everything of the team. */
  onRecheck(): void;
}

/** What the poll has cost so far: `doctor`, tests and benchmarks read it. */
export interface PollCounts {
  polls: number;
  /** Rows the polls returned (changed rooms): 0 for a quiet team. */
  rows: number;
  messageHints: number;
  rechecks: number;
}

export class ChangePoll {
  /** Per room; null until the first poll (which re-checks everything once: hints may have been missed). */
  private cursors: Map<string, RoomCursor> | null = null;
  private running: Promise<void> | null = null;
  readonly counts: PollCounts = { polls: 0, rows: 0, messageHints: 0, rechecks: 0 };

  constructor(private readonly options: ChangePollOptions) {}

  /** One poll (a poll still running is awaited instead of overlapping). */
  poll(): Promise<void> {
    return (this.running ??= this.pollOnce().finally(() => (this.running = null)));
  }

  /** Forgets the cursors: the next poll is a first one again (after LISTEN delivered for a while, or a reconnect). */
  reset(): void {
    this.cursors = null;
  }

  private async pollOnce(): Promise<void> {
    const first = this.cursors === null;
    const cursors = (this.cursors ??= new Map());
    const ids = [...cursors.keys()];
    const result = await this.options.query(CHANGED_ROOMS_SQL, [
      ids,
      ids.map((id) => cursors.get(id)!.nextMessage),
      ids.map((id) => cursors.get(id)!.stamp),
      MAX_ROOMS,
    ] as unknown as SqlValue[]);
    this.counts.polls++;
    this.counts.rows += result.rows.length;
    let recheck = first;
    for (const row of result.rows as Array<{ room_id: string; next_message: number | null; stamp: string | null }>) {
      const held = cursors.get(row.room_id);
      if (row.next_message === null || row.stamp === null) {
        cursors.delete(row.room_id);
        recheck = true;
        continue;
      }
      cursors.set(row.room_id, { nextMessage: Number(row.next_message), stamp: row.stamp });
      if (!held) {
        recheck = true;
        continue;
      }
      if (held.stamp !== row.stamp) recheck = true;
      const fresh = Number(row.next_message) - held.nextMessage;
      if (fresh > MAX_MESSAGE_HINTS) recheck = true;
      else if (!first) {
        for (let n = held.nextMessage; n < Number(row.next_message); n++) {
          this.counts.messageHints++;
          this.options.onMessage(row.room_id, n);
        }
      }
    }
    if (recheck) {
      this.counts.rechecks++;
      this.options.onRecheck();
    }
  }
}
