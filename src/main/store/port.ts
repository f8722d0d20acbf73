// The storage port: the async interface the domain sees, the same for this computer's
// SQLite file (place 'local') and a team's PostgreSQL database. SQL is written once, in
// portable SQL with `?` placeholders; what differs between the engines (full-text search,
// schema, time, connection state) stays behind an adapter (store/sqlite, store/postgres).
import type { EmittedEvent, RoomEvent } from '../events/types';

/** A bound value. Booleans are INTEGER 0/1, timestamps ISO-8601 text, as in both schemas. */
export type SqlValue = string | number | null;

export interface RunResult {
  /** Rows inserted, updated or deleted by the statement. */
  readonly changes: number;
}

/**
 * Runs one statement. Portable SQL only: `?` placeholders (never `$1` or `@name`), `INSERT …
 * ON CONFLICT … DO NOTHING / DO UPDATE SET x = excluded.x`, `IS NOT DISTINCT FROM` (not `IS`
 * between values), `RETURNING`, `CAST(? AS TEXT)` where PostgreSQL cannot infer a
 * parameter's type (`? IS NULL`), `CASE WHEN … THEN 1 ELSE 0 END` instead of a boolean value,
 * and an alias on every computed column (`COUNT(*) AS n`). Integers (also COUNT and SUM)
 * come back as JS numbers from both engines; a boolean expression comes back as 0/1.
 */
export interface Queryable {
  readonly dialect: Dialect;
  /** The first row, or undefined. */
  get<T>(sql: string, ...params: SqlValue[]): Promise<T | undefined>;
  all<T>(sql: string, ...params: SqlValue[]): Promise<T[]>;
  run(sql: string, ...params: SqlValue[]): Promise<RunResult>;
}

/** What a write function gets: queries inside one open transaction of its place. */
export interface Tx extends Queryable {
  /** The write's timestamp (ISO-8601 UTC with milliseconds), the same for the whole write. */
  readonly now: string;
  /** Queues an event to publish after the commit (and, for a team, to tell its other apps); the storage adds its place. */
  emit(event: EmittedEvent): void;
  /** Runs `fn` after the commit (e.g. waking waiters); never on rollback, never for an attempt that was re-run. */
  afterCommit(fn: () => void): void;
  /**
   * Runs `fn` so that, when it throws, only its own statements are undone and the transaction
   * goes on (SAVEPOINT). Needed wherever a write catches a failed statement and continues:
   * in PostgreSQL any failed statement otherwise aborts the whole transaction.
   */
  savepoint<T>(fn: () => Promise<T>): Promise<T>;
}

export type DialectName = 'sqlite' | 'postgres';

/** One search term: a word or phrase (its words in order), or a prefix when `prefix`. */
export interface SearchTerm {
  readonly text: string;
  readonly prefix: boolean;
}

/** What a full-text condition matches. */
export interface TextQuery {
  readonly terms: readonly SearchTerm[];
  /** 'all': every term must match (search_messages); 'any': one is enough (mentions). */
  readonly match: 'all' | 'any';
  /** Which columns are searched; 'text' leaves the sender out. */
  readonly columns: 'text' | 'text_and_sender';
}

/** One message as stored; the port's search rows extend it. */
export interface MessageRow {
  room_id: string;
  number: number;
  kind: 'message' | 'status' | 'event';
  source: 'agent' | 'human' | 'system';
  sender: string;
  text: string;
  reply_to_number: number | null;
  thread_root_number: number | null;
  agent_prompt_kind: 'join' | 'inline' | 'auto' | null;
  publisher_agent_key: string | null;
  publisher_session_id: string | null;
  created_at: string;
  /** A person's message that names nobody: whom it wakes, decided when posted (JSON of domain/activation/untagged.ts); null otherwise. */
  routed_to: string | null;
}

export interface SearchRow extends MessageRow {
  /** About `snippetTokens` words of the text around the hits: `**hit**`, `…` where cut. */
  snippet: string;
}

/** The engine-specific SQL of a place, behind named functions. */
export interface Dialect {
  readonly name: DialectName;
  /**
   * Full-text matches in one room, newest first (number order), at most `limit`. Prompt-only
   * rows (agent_prompt_kind 'auto' with blank text) are never indexed, so they never match.
   */
  searchRoom(q: Queryable, roomId: string, query: TextQuery, limit: number, snippetTokens: number): Promise<SearchRow[]>;
  /**
   * Full-text matches in each of the room list's first `rooms` rooms (selectRoomList's, for no
   * reader), newest first in each, at most `limit` a room, rooms in the list's order. A room
   * whose list row holds a number no JS number holds is left out with its matches, as the room
   * list leaves it out (and says so once).
   */
  searchRooms(q: Queryable, rooms: number, query: TextQuery, limit: number, snippetTokens: number): Promise<SearchRow[]>;
  /**
   * A condition on the messages row aliased `alias` that is true when it matches `query`
   * (and was indexed), for composing into a portable query; `sql` has `?` placeholders.
   */
  textMatch(alias: string, query: TextQuery): { sql: string; params: SqlValue[] };
}

/** Whether a place's database can be reached. This computer's SQLite file is always 'online'. */
export type ConnectionState =
  | { readonly status: 'online' }
  | { readonly status: 'connecting' }
  | {
      readonly status: 'offline';
      /** ISO-8601: when the connection was lost. */
      readonly since: string;
      /** Why the last attempt failed, in words. */
      readonly reason: string;
      /** ISO-8601: when the next attempt starts (backoff). */
      readonly retryAt: string;
    };

/**
 * A change another app made in a team's database (PostgreSQL NOTIFY): the room event it
 * committed, marked remote. Only a hint: read the database for what changed. Hints can be
 * lost while the connection is down, so also re-check every waiter on `onReconnect`.
 */
export type ChangeHint = RoomEvent & { readonly remote: true };

/** One place's storage: this computer ('local') or one team's database. */
export interface WriteOptions {
  /**
   * The app's own bookkeeping while idle (its heartbeat, the last-seen batch): a team runs it on
   * the connection it holds anyway (its listener's), so an idle app opens no other one.
   */
  readonly bookkeeping?: boolean;
  /**
   * Writes no room messages (receipts, the token meter, last-seen, the heartbeat): it does not
   * count in `writing`, so a wake gathering its burst does not wait behind it.
   */
  readonly quiet?: boolean;
}

export interface Storage {
  /** 'local', or the team's name. */
  readonly place: string;
  readonly dialect: Dialect;
  /** Counts read() calls; tests use it to prove that idle waits do not poll. */
  readonly readCount: number;
  /** True while a write of this app to this place (not a quiet one) is queued or running: more messages may be on their way. */
  readonly writing: boolean;
  /** The current time as this place stamps writes (ISO-8601 UTC with milliseconds). */
  now(): string;
  /**
   * Runs a read against committed data: it never sees a write that has not committed. Each
   * statement sees the latest commit (READ COMMITTED); statements of one read may see
   * different commits, so read what must agree in one statement, or inside a write.
   */
  read<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` in one write transaction; resolves after COMMIT with its value, or rejects
   * after ROLLBACK. This app runs one write at a time per place. Events and afterCommit
   * callbacks run only after COMMIT. An adapter may run `fn` again after a serialization
   * failure (PostgreSQL, another machine wrote the same rows): `fn` must have no effect
   * outside `tx` (no in-memory state changed, no I/O, no timers) — do those in afterCommit.
   */
  write<T>(fn: (tx: Tx) => Promise<T>, options?: WriteOptions): Promise<T>;
  /** Resolves when every queued write has settled. */
  drain(): Promise<void>;
  /**
   * A number that changes whenever another connection or process commits to this database
   * (never for this storage's own writes), so a cache of rows written only through `write`
   * can tell it is still current; null when it cannot tell now (a write is running), absent
   * where it never can (a team's database).
   */
  othersCommitStamp?(): number | null;
  /** Waits for queued writes, then closes every connection. */
  close(): Promise<void>;
  connection(): ConnectionState;
  onConnectionChange(listener: (state: ConnectionState) => void): () => void;
  /** Changes made by other apps of the same team (never fires for 'local'). */
  onRemoteChange(listener: (hint: ChangeHint) => void): () => void;
  /** After a lost connection came back: re-check what a missed hint could have changed. */
  onReconnect(listener: () => void): () => void;
}
