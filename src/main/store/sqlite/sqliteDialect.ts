// SQLite's engine-specific SQL: full-text search through the FTS5 table messages_fts
// (tokenizer unicode61, diacritics removed) with FTS5's snippet().
import type { Dialect, Queryable, SearchRow, SearchTerm, TextQuery } from '../port';
import { selectRoomList } from '../roomQueries';

/** The FTS5 expression of `query`: each term one quoted string (never an operator), `*` for a prefix. */
export function fts5Expression(query: TextQuery): string {
  const terms = query.terms.map(fts5Term).join(query.match === 'all' ? ' ' : ' OR ');
  // FTS5 parses a query as a C string: a NUL ends it early ("unterminated string"). The
  // tokenizer treats NUL as a separator anyway, so a space in its place searches the same.
  const expression = query.columns === 'text' ? `text : (${terms})` : terms;
  return expression.replace(/\u0000/g, ' ');
}

function fts5Term(term: SearchTerm): string {
  const quoted = `"${term.text.replace(/"/g, '""')}"`;
  return term.prefix ? `${quoted}*` : quoted;
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',

  searchRoom(q: Queryable, roomId: string, query: TextQuery, limit: number, snippetTokens: number): Promise<SearchRow[]> {
    return q.all<SearchRow>(
      `SELECT m.room_id, m.number, m.kind, m.source, m.sender, m.text, m.reply_to_number, m.thread_root_number,
         m.agent_prompt_kind, m.publisher_agent_key, m.publisher_session_id, m.created_at, m.routed_to,
         snippet(messages_fts, 0, '**', '**', '…', ?) AS snippet
       FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid
       WHERE messages_fts MATCH ? AND m.room_id = ?
       -- rowid order is number order within a room, and FTS5 walks it backwards without
       -- sorting every match first: a common word stays as fast as a rare one.
       ORDER BY messages_fts.rowid DESC LIMIT ?`,
      snippetTokens, fts5Expression(query), roomId, limit,
    );
  },

  // A file of this computer costs no round trip a statement: each room's search walks its own
  // matches backwards (above), which one statement over every room could not.
  async searchRooms(q: Queryable, rooms: number, query: TextQuery, limit: number, snippetTokens: number): Promise<SearchRow[]> {
    const found: SearchRow[] = [];
    for (const room of await selectRoomList(q, '', rooms)) found.push(...(await sqliteDialect.searchRoom(q, room.room_id, query, limit, snippetTokens)));
    return found;
  },

  textMatch(alias: string, query: TextQuery) {
    return { sql: `${alias}.rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)`, params: [fts5Expression(query)] };
  },
};
