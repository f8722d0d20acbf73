// B4: sustained message writes, one commit per message, through the store's write queue
// and the domain's sendMessage, against raw better-sqlite3 inserts of the same rows into
// the same schema with the same pragmas (both databases are opened by openDatabase).
// Both run in this process, in alternating blocks.
import { join } from 'node:path';
import { createCore } from '../../src/main/core';
import type { AgentActor } from '../../src/main/domain/actor';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { sendMessage } from '../../src/main/domain/messages/send';
import { openDatabase } from '../../src/main/store/sqlite/database';
import { vocabularyFor } from '../lib/dataset';
import type { Figure } from '../lib/figure';
import { seededRandom } from '../lib/random';
import { collectGarbage, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const BLOCKS = 6;
const PER_BLOCK = 1_000;
const ROOM = 'bench-writes';

const author: AgentActor = {
  kind: 'agent',
  label: "Juniper | Ada's agent | Claude Code",
  agentKey: 'ada/worker-0123456789abcdef0123456789abcdef',
  sessionId: `local_${'ab'.repeat(32)}`,
  displayName: 'Juniper',
};

export const b4: Figure = {
  id: 'B4',
  what: 'sustained message writes, one commit per message, through the store',
  target: '≥ 0.7× raw rate',
  async run() {
    const ws = workspace();
    const vocabulary = vocabularyFor(7);
    const random = seededRandom(7);
    const texts = Array.from({ length: BLOCKS * PER_BLOCK + 200 }, () => vocabulary.sentence(random, 4, 40));

    const core = createCore({ dataDir: ws.dataDir });
    const raw = openDatabase(join(ws.root, 'raw.db'));
    try {
      await core.store.write((tx) => ensureRoom(tx, { roomId: ROOM, kind: 'named' }));
      const now = new Date().toISOString();
      raw.prepare("INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES (?, 'named', ?, ?, ?)").run(ROOM, ROOM, now, now);
      const insert = raw.prepare(
        `INSERT INTO messages (room_id, number, kind, source, sender, text, reply_to_number, thread_root_number,
           agent_prompt_kind, publisher_agent_key, publisher_session_id, created_at)
         VALUES (?, ?, 'message', 'agent', ?, ?, NULL, NULL, NULL, ?, ?, ?)`,
      );
      let oursNext = 0;
      let rawNext = 0;
      const oursWrite = () => core.store.write((tx) => sendMessage(tx, { roomId: ROOM, author, text: texts[oursNext++] }));
      const rawWrite = () => {
        const i = rawNext++;
        insert.run(ROOM, i + 1, author.label, texts[i], author.agentKey, author.sessionId, new Date().toISOString());
      };
      for (let i = 0; i < 100; i++) await oursWrite();
      for (let i = 0; i < 100; i++) rawWrite();

      const oursMs: number[] = [];
      const rawMs: number[] = [];
      let oursTotal = 0;
      let rawTotal = 0;
      for (let block = 0; block < BLOCKS; block++) {
        collectGarbage();
        let start = performance.now();
        for (let i = 0; i < PER_BLOCK; i++) {
          const t = performance.now();
          await oursWrite();
          oursMs.push(performance.now() - t);
        }
        oursTotal += performance.now() - start;
        collectGarbage();
        start = performance.now();
        for (let i = 0; i < PER_BLOCK; i++) {
          const t = performance.now();
          rawWrite();
          rawMs.push(performance.now() - t);
        }
        rawTotal += performance.now() - start;
      }
      const count = BLOCKS * PER_BLOCK;
      const oursRate = count / (oursTotal / 1000);
      const rawRate = count / (rawTotal / 1000);
      const o = summarize(oursMs);
      const f = summarize(rawMs);
      return {
        ours: { ...o, label: 'store.write + sendMessage per message', unit: 'ms' },
        floor: { ...f, label: 'raw INSERT, autocommit', unit: 'ms' },
        ratio: oursRate / rawRate,
        met: oursRate / rawRate >= 0.7,
        notes: [
          `rate: ours ${Math.round(oursRate).toLocaleString('en')} msg/s, raw ${Math.round(rawRate).toLocaleString('en')} msg/s (ratio = ours ÷ raw); WAL, synchronous=NORMAL, FTS triggers on both`,
          `${BLOCKS} alternating blocks of ${PER_BLOCK.toLocaleString('en')} writes; median and p99 are per write`,
        ],
      };
    } finally {
      raw.close();
      await core.close();
    }
  },
};

