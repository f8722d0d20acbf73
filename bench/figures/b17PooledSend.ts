// B17 (issue 29): B11's send_message round trip in a team room through a real PgBouncer in
// transaction mode (the listener direct) against the same call on a direct connection to the
// same database, one app, alternating blocks.
import { callTool, joinAsWorker, type Worker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { closeClient, connectHelper } from '../lib/processes';
import { alternatingBlocks, summarize, timed } from '../lib/stats';
import { POOLED_TEAM, startTeam, TEAM } from '../lib/team';

const WARMUP = 100;
const BLOCKS = 10;
const PER_BLOCK = 100;

export const b17: Figure = {
  id: 'B17',
  what: 'send_message round trip in a team room through PgBouncer (transaction mode) vs a direct connection',
  target: 'ratio ≤ 1.3×',
  async run() {
    const team = await startTeam({ pooler: true });
    try {
      const { ws } = await team.machine();
      const helper = await connectHelper(ws.dataDir, ws.agentDir);
      try {
        const pooled = await joinAsWorker(helper, 'bench-b17-pooled', 'Pooled', POOLED_TEAM);
        const direct = await joinAsWorker(helper, 'bench-b17-direct', 'Direct', TEAM);
        let n = 0;
        const send = (w: Worker) => callTool(helper, 'send_message', { worker_id: w.workerId, room_id: w.roomId, text: `bench message ${++n}` });
        for (let i = 0; i < WARMUP; i++) await send(pooled);
        for (let i = 0; i < WARMUP; i++) await send(direct);
        const [pooledMs, directMs] = await alternatingBlocks(BLOCKS, PER_BLOCK, [() => timed(() => send(pooled)), () => timed(() => send(direct))]);
        const o = summarize(pooledMs);
        const f = summarize(directMs);
        const ratio = o.median / f.median;
        return {
          ours: { ...o, label: 'send_message via helper, team room through PgBouncer', unit: 'ms' },
          floor: { ...f, label: 'the same call, direct to PostgreSQL', unit: 'ms' },
          ratio,
          met: ratio <= 1.3,
          notes: [`floor p99 ${f.p99.toFixed(2)} ms; ${WARMUP} warm-up calls each, then ${BLOCKS} alternating blocks of ${PER_BLOCK}; both rooms in one database`],
        };
      } finally {
        await closeClient(helper);
      }
    } finally {
      await team.stop();
    }
  },
};
