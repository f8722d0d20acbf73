// B2: read_messages (newest 100) through the stdio helper in a room of 1 000 000 messages,
// against the same call in a room of 10 000 in the same database. Both rooms live in one
// file, so the only difference is the room's size.
import { callTool } from '../lib/agents';
import { LARGE_ROOM, SMALL_ROOM, generationNote, largeDataSet } from '../lib/datasets';
import type { Figure } from '../lib/figure';
import { withServeAndHelper } from '../lib/processes';
import { medianMs, withReadOnlyDb } from '../lib/sqlProbe';
import { countRoomMessages, selectBefore } from '../../src/main/store/messageQueries';
import { alternatingBlocks, summarize, timed } from '../lib/stats';
import { workspace } from '../lib/workspace';

const WARMUP = 30;
const BLOCKS = 10;
const PER_BLOCK = 30;

export const b2: Figure = {
  id: 'B2',
  what: 'read_messages (newest 100) in a room of 1 000 000 messages',
  target: 'p50 ≤ 2 ms; ratio ≤ 1.5',
  async run(ctx) {
    const data = largeDataSet(ctx);
    const ws = workspace(data.dataDir);
    return withServeAndHelper(ws, async (helper) => {
      const read = async (roomId: string) => {
        const result = await callTool(helper, 'read_messages', { room_id: roomId, limit: 100 });
        if ((result.messages as unknown[]).length !== 100) throw new Error(`read_messages returned ${(result.messages as unknown[]).length} messages`);
      };
      for (let i = 0; i < WARMUP; i++) await read(LARGE_ROOM);
      for (let i = 0; i < WARMUP; i++) await read(SMALL_ROOM);
      const [large, small] = await alternatingBlocks(BLOCKS, PER_BLOCK, [() => timed(() => read(LARGE_ROOM)), () => timed(() => read(SMALL_ROOM))]);
      const o = summarize(large);
      const f = summarize(small);
      const ratio = o.median / f.median;
      // Where the difference goes: the queries read_messages runs, timed alone.
      const sql = await withReadOnlyDb(ws.dataDir, async (q) => ({
        countLarge: await medianMs(() => countRoomMessages(q, LARGE_ROOM)),
        countSmall: await medianMs(() => countRoomMessages(q, SMALL_ROOM)),
        pageLarge: await medianMs(() => selectBefore(q, LARGE_ROOM, 2_147_483_648, 100)),
      }));
      return {
        ours: { ...o, label: `room of ${data.rooms[0].messages.toLocaleString('en')}`, unit: 'ms' },
        floor: { ...f, label: 'room of 10,000', unit: 'ms' },
        ratio,
        met: o.median <= 2 && ratio <= 1.5,
        notes: [
          generationNote(data),
          `through a stdio helper; ${BLOCKS} alternating blocks of ${PER_BLOCK}`,
          `in SQL alone: newest-100 page ${sql.pageLarge.toFixed(2)} ms; total_message_count's COUNT(*) ${sql.countLarge.toFixed(1)} ms (large room) vs ${sql.countSmall.toFixed(2)} ms (small room)`,
        ],
      };
    });
  },
};
