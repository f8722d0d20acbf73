// B11 (issue 12): send_message round trip through the stdio helper in a team room (a
// SERIALIZABLE transaction on a local PostgreSQL, NOTIFY for the team's other apps) against
// the same call in a room of this computer (SQLite), one app, alternating blocks.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, joinAsWorker, type Worker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { closeClient, connectHelper } from '../lib/processes';
import { alternatingBlocks, summarize, timed } from '../lib/stats';
import { startTeam, TEAM } from '../lib/team';

const WARMUP = 100;
const BLOCKS = 10;
const PER_BLOCK = 100;

export const b11: Figure = {
  id: 'B11',
  what: 'send_message round trip in a team room (local PostgreSQL) vs a room of this computer',
  target: 'ratio ≤ 3×',
  async run() {
    const team = await startTeam();
    try {
      const { ws } = await team.machine();
      const helper = await connectHelper(ws.dataDir, ws.agentDir);
      try {
        const inTeam = await joinAsWorker(helper, 'bench-b11', 'Teamster', TEAM);
        const here = await joinAsWorker(helper, 'bench-b11-local', 'Homebody', 'local');
        const { o, f, ratio, note } = await compareSends(helper, inTeam, here);
        return {
          ours: { ...o, label: 'send_message via helper, team room', unit: 'ms' },
          floor: { ...f, label: 'the same call, a room of this computer', unit: 'ms' },
          ratio,
          met: ratio <= 3,
          notes: [note],
        };
      } finally {
        await closeClient(helper);
      }
    } finally {
      await team.stop();
    }
  },
};

/** send_message round trips of two workers on one helper: warm-up, then alternating blocks; `ours` over `floor`. */
export async function compareSends(helper: Client, ours: Worker, floor: Worker) {
  let n = 0;
  const send = (w: Worker) => callTool(helper, 'send_message', { worker_id: w.workerId, room_id: w.roomId, text: `bench message ${++n}` });
  for (let i = 0; i < WARMUP; i++) await send(ours);
  for (let i = 0; i < WARMUP; i++) await send(floor);
  const [oursMs, floorMs] = await alternatingBlocks(BLOCKS, PER_BLOCK, [() => timed(() => send(ours)), () => timed(() => send(floor))]);
  const o = summarize(oursMs);
  const f = summarize(floorMs);
  return { o, f, ratio: o.median / f.median, note: `floor p99 ${f.p99.toFixed(2)} ms; ${WARMUP} warm-up calls each, then ${BLOCKS} alternating blocks of ${PER_BLOCK}` };
}
