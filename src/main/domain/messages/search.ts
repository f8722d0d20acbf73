// Full-text search in one room (mcp-tools.md §5.4), or in every room of a place (the app's
// search). The query is split here into terms, one per whitespace-separated word, each searched
// as plain text (the place's dialect quotes it), so a user's query can never inject search
// operators; `term*` (2+ characters before the star) searches a prefix.
import type { Queryable, SearchRow, SearchTerm, TextQuery } from '../../store/port';
import { errors } from '../errors';
import { msgId } from '../ids';
import type { MessageRow } from './read';

export const MAX_SEARCH_TERMS = 16;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
const SNIPPET_TOKENS = 24;
// unicode61 makes tokens of letters and numbers only; a term without one matches nothing.
const TOKEN_CHAR = /[\p{L}\p{N}]/u;

export interface SearchMatch {
  id: string;
  kind: MessageRow['kind'];
  source: MessageRow['source'];
  sender: string;
  timestamp: string;
  thread_root_id: string | null;
  reply_to_id: string | null;
  snippet: string;
}

export interface SearchResult {
  matches: SearchMatch[];
  has_more: boolean;
}

/** A user's query as search terms, every one required; M8 when it has no term, M9 above 16. */
export function toTextQuery(query: string): TextQuery {
  const words = query.split(/\s+/).filter((t) => t !== '');
  if (words.length > MAX_SEARCH_TERMS) throw errors.M9();
  const terms = words.map(searchTerm).filter((t): t is SearchTerm => t !== null);
  if (terms.length === 0) throw errors.M8();
  return { terms, match: 'all', columns: 'text_and_sender' };
}

function searchTerm(word: string): SearchTerm | null {
  const stem = word.replace(/\*+$/, '');
  const prefix = stem !== word && [...stem].length >= 2;
  const text = prefix ? stem : word;
  return TOKEN_CHAR.test(text) ? { text, prefix } : null;
}

/** `limit` clamped to 1–100 (default 20). */
const clampLimit = (limit: number) => (Number.isFinite(limit) ? Math.min(Math.max(1, Math.floor(limit)), MAX_SEARCH_LIMIT) : DEFAULT_SEARCH_LIMIT);

/** One room's matches in a search of every room: message rows, newest first. */
export interface RoomMatches {
  roomId: string;
  rows: SearchRow[];
  hasMore: boolean;
}

/**
 * Matches in every room of the place's room list (its first `rooms`, in its order), newest
 * first in each, at most `limit` a room (clamped as searchMessages's); rooms without one left out.
 */
export async function searchEveryRoom(q: Queryable, query: string, limit: number, rooms: number): Promise<RoomMatches[]> {
  const max = clampLimit(limit);
  const rows = await q.dialect.searchRooms(q, rooms, toTextQuery(query), max + 1, SNIPPET_TOKENS);
  const found: RoomMatches[] = [];
  for (const row of rows) {
    let room = found.at(-1);
    if (room?.roomId !== row.room_id) found.push((room = { roomId: row.room_id, rows: [], hasMore: false }));
    if (room.rows.length < max) room.rows.push(row);
    else room.hasMore = true;
  }
  return found;
}

/** Matches newest first; `limit` is clamped to 1–100 (default 20). */
export async function searchMessages(q: Queryable, roomId: string, query: string, limit: number = DEFAULT_SEARCH_LIMIT): Promise<SearchResult> {
  const textQuery = toTextQuery(query);
  const max = clampLimit(limit);
  const rows = await q.dialect.searchRoom(q, roomId, textQuery, max + 1, SNIPPET_TOKENS);
  return {
    matches: rows.slice(0, max).map((row) => ({
      id: msgId(row.number),
      kind: row.kind,
      source: row.source,
      sender: row.sender,
      timestamp: row.created_at,
      thread_root_id: row.thread_root_number === null ? null : msgId(row.thread_root_number),
      reply_to_id: row.reply_to_number === null ? null : msgId(row.reply_to_number),
      snippet: row.snippet,
    })),
    has_more: rows.length > max,
  };
}
