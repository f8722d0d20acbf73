// B9: search_messages through the stdio helper in the room of 1 000 000 messages, with a
// fixed mix of queries from very common to rare words, two-term and prefix queries. The
// same mix in the 10 000-message room is shown for reference.
import { callTool } from '../lib/agents';
import { LARGE_ROOM, SMALL_ROOM, generationNote, largeDataSet } from '../lib/datasets';
import type { Figure } from '../lib/figure';
import type { Vocabulary } from '../lib/random';
import { withServeAndHelper } from '../lib/processes';
import { medianMs, withReadOnlyDb } from '../lib/sqlProbe';
import { toTextQuery } from '../../src/main/domain/messages/search';
import type { Db } from '../../src/main/store/sqlite/database';
import { fts5Expression } from '../../src/main/store/sqlite/sqliteDialect';
import { summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const ROUNDS = 20;

/**
 * The app's search query with one change, for the notes: ordered by the FTS rowid (the
 * insert order, so the same order as number within a room), which FTS5 can walk
 * newest-first and stop after LIMIT rows instead of sorting every match.
 */
function searchByFtsRowid(db: Db, roomId: string, ftsQuery: string, limit: number) {
  return db
    .prepare(
      `SELECT m.number, snippet(messages_fts, 0, '**', '**', '…', 24) AS snippet
       FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid
       WHERE messages_fts MATCH ? AND m.room_id = ?
       ORDER BY messages_fts.rowid DESC LIMIT ?`,
    )
    .all(ftsQuery, roomId, limit);
}

/** Queries by word frequency rank (0 = the most common word). */
export function searchQueries(vocabulary: Vocabulary): Array<{ query: string; kind: string }> {
  const w = (rank: number) => vocabulary.words[rank];
  return [
    { query: w(4), kind: 'very common word' },
    { query: w(50), kind: 'common word' },
    { query: w(500), kind: 'uncommon word' },
    { query: w(2500), kind: 'rare word' },
    { query: `${w(20)} ${w(200)}`, kind: 'two words' },
    { query: `${w(100).slice(0, 3)}*`, kind: 'prefix' },
  ];
}

export const b9: Figure = {
  id: 'B9',
  what: 'search_messages over 1 000 000 messages',
  target: 'p50 ≤ 20 ms',
  async run(ctx) {
    const data = largeDataSet(ctx);
    const ws = workspace(data.dataDir);
    return withServeAndHelper(ws, async (helper) => {
      const queries = searchQueries(data.vocabulary);
      const search = (roomId: string, query: string) => callTool(helper, 'search_messages', { room_id: roomId, query, limit: 20 });
      for (const q of queries) await search(LARGE_ROOM, q.query);
      const large: number[] = [];
      const small: number[] = [];
      const perKind = new Map<string, number[]>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const q of queries) {
          let t = performance.now();
          await search(LARGE_ROOM, q.query);
          const ms = performance.now() - t;
          large.push(ms);
          perKind.set(q.kind, [...(perKind.get(q.kind) ?? []), ms]);
          t = performance.now();
          await search(SMALL_ROOM, q.query);
          small.push(performance.now() - t);
        }
      }
      const o = summarize(large);
      const f = summarize(small);
      const byKind = [...perKind].map(([kind, xs]) => `${kind} ${summarize(xs).median.toFixed(1)}`).join(', ');
      const sql = await withReadOnlyDb(ws.dataDir, async (port, db) => {
        const out = [];
        for (const q of queries) {
          const textQuery = toTextQuery(q.query);
          out.push({
            kind: q.kind,
            app: await medianMs(() => port.dialect.searchRoom(port, LARGE_ROOM, textQuery, 21, 24), 3),
            byRowid: await medianMs(() => searchByFtsRowid(db, LARGE_ROOM, fts5Expression(textQuery), 21), 3),
          });
        }
        return out;
      });
      return {
        ours: { ...o, label: `room of ${data.rooms[0].messages.toLocaleString('en')}, ${queries.length} queries`, unit: 'ms' },
        floor: { ...f, label: 'same queries, room of 10,000', unit: 'ms' },
        ratio: o.median / f.median,
        met: o.median <= 20,
        notes: [
          generationNote(data),
          `median by query (ms): ${byKind}`,
          `in SQL alone (ms, app query → ordered by FTS rowid): ${sql.map((q) => `${q.kind} ${q.app.toFixed(1)} → ${q.byRowid.toFixed(1)}`).join(', ')}`,
        ],
      };
    });
  },
};
