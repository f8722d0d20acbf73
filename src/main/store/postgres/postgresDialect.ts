// PostgreSQL's engine-specific SQL: full-text search over the generated messages.search_vector
// column (GIN index, 'letagents' configuration), with snippets cut like SQLite's. A search of
// every room is one statement (a round trip to a team's server per room was the cost).
import type { Dialect, Queryable, SearchRow, TextQuery } from '../port';
import { ROOM_LIST_NUMBERS, ROOM_LIST_ORDER, ROOM_LIST_SELECT } from '../roomQueries';
import { snippetOf, tsQueryText } from './snippet';

const MESSAGE_COLUMNS = `m.room_id, m.number, m.kind, m.source, m.sender, m.text, m.reply_to_number, m.thread_root_number,
  m.agent_prompt_kind, m.publisher_agent_key, m.publisher_session_id, m.created_at, m.routed_to`;

// The room list as the sidebar orders it (no reader: '') and, per room, its newest matches, as
// searchRoom finds them. Each hit carries its room's list numbers under their own names, so a
// forged room row leaves out its hits and is said once with the same words as the room list's.
const SEARCH_ROOMS_SQL = `
WITH listed AS (
  SELECT room_list.*, row_number() OVER (ORDER BY ${ROOM_LIST_ORDER}) AS list_position
  FROM (${ROOM_LIST_SELECT}) AS room_list ORDER BY list_position LIMIT ?
)
SELECT m.*, ${ROOM_LIST_NUMBERS.map((column) => `l.${column}`).join(', ')}
FROM listed l CROSS JOIN LATERAL (
  SELECT ${MESSAGE_COLUMNS} FROM messages m
  WHERE m.room_id = l.room_id AND m.search_vector @@ to_tsquery('letagents', ?)
  ORDER BY m.number DESC LIMIT ?
) m
ORDER BY l.list_position, m.number DESC`;

export const postgresDialect: Dialect = {
  name: 'postgres',

  async searchRoom(q: Queryable, roomId: string, query: TextQuery, limit: number, snippetTokens: number): Promise<SearchRow[]> {
    const tsQuery = tsQueryText(query);
    if (tsQuery === null) return [];
    const rows = await q.all<Omit<SearchRow, 'snippet'>>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.room_id = ? AND m.search_vector @@ to_tsquery('letagents', ?)
       ORDER BY m.number DESC LIMIT ?`,
      roomId, tsQuery, limit,
    );
    return rows.map((row) => ({ ...row, snippet: snippetOf(row.text, query.terms, snippetTokens) }));
  },

  async searchRooms(q: Queryable, rooms: number, query: TextQuery, limit: number, snippetTokens: number): Promise<SearchRow[]> {
    const tsQuery = tsQueryText(query);
    if (tsQuery === null) return [];
    const rows = await q.all<Omit<SearchRow, 'snippet'>>(SEARCH_ROOMS_SQL, '', rooms, tsQuery, limit);
    return rows.map((row) => {
      // The room's numbers did their work (checked as the rows were read): a hit is a message row.
      const hit: Record<string, unknown> = { ...row };
      for (const column of ROOM_LIST_NUMBERS) delete hit[column];
      return { ...(hit as Omit<SearchRow, 'snippet'>), snippet: snippetOf(row.text, query.terms, snippetTokens) };
    });
  },

  textMatch(alias: string, query: TextQuery) {
    const tsQuery = tsQueryText(query);
    if (tsQuery === null) return { sql: 'FALSE', params: [] };
    return { sql: `${alias}.search_vector @@ to_tsquery('letagents', ?)`, params: [tsQuery] };
  },
};
