// Full-text search in one room (mcp-tools.md §5.4). The query is turned into FTS5 syntax
// here, one quoted string per whitespace-separated term, so a user's query can never
// inject FTS5 operators; `term*` (2+ characters before the star) searches a prefix.
import type { Db } from '../../store/database';
import { selectSearchMatches } from '../../store/messageQueries';
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

/** Turns a user's query into a safe FTS5 expression; M8 when it has no term, M9 above 16. */
export function toFtsQuery(query: string): string {
  const terms = query.split(/\s+/).filter((t) => t !== '');
  if (terms.length > MAX_SEARCH_TERMS) throw errors.M9();
  const parts = terms.map(ftsTerm).filter((p): p is string => p !== null);
  if (parts.length === 0) throw errors.M8();
  // Space-separated FTS5 strings are ANDed: every term must match.
  return parts.join(' ');
}

function ftsTerm(term: string): string | null {
  const stem = term.replace(/\*+$/, '');
  const prefix = stem !== term && [...stem].length >= 2;
  const text = prefix ? stem : term;
  if (!TOKEN_CHAR.test(text)) return null;
  const quoted = `"${text.replace(/"/g, '""')}"`;
  return prefix ? `${quoted}*` : quoted;
}

/** Matches newest first; `limit` is clamped to 1–100 (default 20). */
export function searchMessages(db: Db, roomId: string, query: string, limit: number = DEFAULT_SEARCH_LIMIT): SearchResult {
  const fts = toFtsQuery(query);
  const max = Number.isFinite(limit) ? Math.min(Math.max(1, Math.floor(limit)), MAX_SEARCH_LIMIT) : DEFAULT_SEARCH_LIMIT;
  const rows = selectSearchMatches(db, roomId, fts, max + 1, SNIPPET_TOKENS);
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
