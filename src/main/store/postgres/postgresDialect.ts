// PostgreSQL's engine-specific SQL: full-text search over the generated messages.search_vector
// column (GIN index, 'letagents' configuration), with snippets cut like SQLite's.
import type { Dialect, Queryable, SearchRow, TextQuery } from '../port';
import { snippetOf, tsQueryText } from './snippet';

export const postgresDialect: Dialect = {
  name: 'postgres',

  async searchRoom(q: Queryable, roomId: string, query: TextQuery, limit: number, snippetTokens: number): Promise<SearchRow[]> {
    const tsQuery = tsQueryText(query);
    if (tsQuery === null) return [];
    const rows = await q.all<Omit<SearchRow, 'snippet'>>(
      `SELECT room_id, number, kind, source, sender, text, reply_to_number, thread_root_number,
         agent_prompt_kind, publisher_agent_key, publisher_session_id, created_at, routed_to
       FROM messages WHERE room_id = ? AND search_vector @@ to_tsquery('letagents', ?)
       ORDER BY number DESC LIMIT ?`,
      roomId, tsQuery, limit,
    );
    return rows.map((row) => ({ ...row, snippet: snippetOf(row.text, query.terms, snippetTokens) }));
  },

  textMatch(alias: string, query: TextQuery) {
    const tsQuery = tsQueryText(query);
    if (tsQuery === null) return { sql: 'FALSE', params: [] };
    return { sql: `${alias}.search_vector @@ to_tsquery('letagents', ?)`, params: [tsQuery] };
  },
};
