// B25 (issue 32 item 7's leftover): the search of every room on a team of 1,000 rooms, reached
// through a transaction-mode PgBouncer (each statement a round trip through the pooler). Ours:
// searchEveryRoom, one statement per team. The floor is the way it ran before, measured in the
// same run: the room list, then each room's own search and a read of each hit. Two words: a rare
// one (in 20 rooms) and a common one (in every room, a full page of hits each).
import pg from 'pg';
import { startPgBouncer, startPostgres } from '../../test/support/postgres';
import { EventBus } from '../../src/main/events/bus';
import { PostgresStorage } from '../../src/main/store/postgres/postgresStorage';
import { listRooms } from '../../src/main/domain/rooms/rooms';
import { DEFAULT_ROOM_LIST_LIMIT } from '../../src/main/domain/rooms/roomList';
import { searchEveryRoom, searchMessages } from '../../src/main/domain/messages/search';
import { getMessageRow } from '../../src/main/domain/messages/read';
import { parseNumberedId } from '../../src/main/domain/ids';
import type { Queryable } from '../../src/main/store/port';
import type { Figure } from '../lib/figure';
import { summarize } from '../lib/stats';

const ROOMS = 1_000;
const MESSAGES_A_ROOM = 10;
const PER_ROOM = 10;
const RUNS = 5;

/** Hits found room by room, as the search of every room ran before. */
async function roomByRoom(q: Queryable, query: string): Promise<number> {
  let hits = 0;
  for (const room of await listRooms(q)) {
    const found = await searchMessages(q, room.roomId, query, PER_ROOM);
    for (const match of found.matches) if (await getMessageRow(q, room.roomId, parseNumberedId('msg', match.id)!)) hits++;
  }
  return hits;
}

async function inOneStatement(q: Queryable, query: string): Promise<number> {
  return (await searchEveryRoom(q, query, PER_ROOM, DEFAULT_ROOM_LIST_LIMIT)).reduce((n, room) => n + room.rows.length, 0);
}

export const b25: Figure = {
  id: 'B25',
  what: `search of every room on a team of ${ROOMS} rooms through PgBouncer (a rare word, and one in every room)`,
  target: 'at most a fifth of the room-by-room search it replaced, with the same hits',
  async run(ctx) {
    const cluster = await startPostgres();
    const bouncer = await startPgBouncer(cluster);
    const direct = await cluster.createDatabase();
    const storage = new PostgresStorage({ place: 'acme', url: bouncer.pooledUrl(direct), bus: new EventBus() });
    const probe = new pg.Client({ connectionString: direct });
    try {
      await storage.ready();
      await probe.connect();
      await probe.query(
        `INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at, next_message_number)
         SELECT 'room-' || g, 'named', 'Room ' || g, '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', $2::int + 1 FROM generate_series(1, $1::int) g`,
        [ROOMS, MESSAGES_A_ROOM],
      );
      await probe.query(
        `INSERT INTO messages (room_id, number, kind, source, sender, text, created_at)
         SELECT 'room-' || g, n, 'message', 'human', 'ada', CASE WHEN g % 50 = 0 THEN 'zebra report ' ELSE 'report build ' END || n,
           '2026-12-01T00:00:' || lpad(n::text, 2, '0') || '.000Z'
         FROM generate_series(1, $1::int) g, generate_series(1, $2::int) n`,
        [ROOMS, MESSAGES_A_ROOM],
      );
      await probe.query('ANALYZE');
      const ours: number[] = [];
      const floor: number[] = [];
      const notes: string[] = [];
      let sameHits = true;
      for (const word of ['zebra', 'report']) {
        const found: number[] = [];
        for (const [times, search] of [[ours, inOneStatement], [floor, roomByRoom]] as const) {
          let hits = 0;
          for (let i = 0; i < RUNS; i++) {
            const start = performance.now();
            hits = await storage.read((q) => search(q, word));
            times.push(performance.now() - start);
          }
          found.push(hits);
          notes.push(`"${word}" ${search === inOneStatement ? 'one statement' : 'room by room'}: ${hits} hits, median ${summarize(times.slice(-RUNS)).median.toFixed(0)} ms`);
        }
        sameHits &&= found[0] === found[1];
      }
      for (const note of notes) ctx.log(`B25: ${note}`);
      const o = summarize(ours);
      const f = summarize(floor);
      return {
        ours: { ...o, label: `searchAll's statement, ${RUNS} runs of each word`, unit: 'ms' },
        floor: { ...f, label: 'room by room as before (room list, each room\'s search, each hit read)', unit: 'ms' },
        ratio: o.median / f.median,
        met: o.median <= f.median / 5 && sameHits,
        notes,
      };
    } finally {
      await probe.end().catch(() => undefined);
      await storage.close();
      bouncer.stop();
      cluster.stop();
    }
  },
};
