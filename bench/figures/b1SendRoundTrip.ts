// B1: send_message through the stdio helper, the agent socket, the MCP server and a SQLite
// commit, against a no-op tool on a bare MCP SDK stdio server, driven by the same SDK
// client. The two are measured in alternating blocks so machine noise hits both alike.
import { callTool, joinAsWorker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { closeClient, connectBareServer, withServeAndHelper } from '../lib/processes';
import { summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const WARMUP = 100;
const BLOCKS = 10;
const PER_BLOCK = 100;

export const b1: Figure = {
  id: 'B1',
  what: 'send_message round trip: stdio helper → socket → server → SQLite commit',
  target: 'p50 ≤ 2× floor',
  async run() {
    const ws = workspace();
    return withServeAndHelper(ws, async (helper) => {
      const bare = await connectBareServer(ws.agentDir);
      try {
        const worker = await joinAsWorker(helper, 'bench-b1', 'Bench01');
        let n = 0;
        const ours = () => callTool(helper, 'send_message', { worker_id: worker.workerId, text: `bench message ${++n}` });
        const floor = () => callTool(bare, 'noop', { text: `bench message ${++n}` });
        // Breakdown only: a read-only tool with next to no work, through the same helper.
        const hop = () => callTool(helper, 'get_current_room');
        for (let i = 0; i < WARMUP; i++) await ours();
        for (let i = 0; i < WARMUP; i++) await floor();
        for (let i = 0; i < WARMUP; i++) await hop();
        const oursMs: number[] = [];
        const floorMs: number[] = [];
        const hopMs: number[] = [];
        for (let block = 0; block < BLOCKS; block++) {
          for (let i = 0; i < PER_BLOCK / 2; i++) {
            const t = performance.now();
            await hop();
            hopMs.push(performance.now() - t);
          }
          for (let i = 0; i < PER_BLOCK; i++) {
            const t = performance.now();
            await ours();
            oursMs.push(performance.now() - t);
          }
          for (let i = 0; i < PER_BLOCK; i++) {
            const t = performance.now();
            await floor();
            floorMs.push(performance.now() - t);
          }
        }
        const o = summarize(oursMs);
        const f = summarize(floorMs);
        const h = summarize(hopMs);
        const ratio = o.median / f.median;
        return {
          ours: { ...o, label: 'send_message via helper, one commit each', unit: 'ms' },
          floor: { ...f, label: 'no-op tool, bare SDK stdio server', unit: 'ms' },
          ratio,
          met: ratio <= 2,
          notes: [
            `floor p99 ${f.p99.toFixed(2)} ms; ${WARMUP} warm-up calls each, then ${BLOCKS} alternating blocks of ${PER_BLOCK}`,
            `breakdown: get_current_room through the same helper (the extra helper + socket hop, almost no tool work) median ${h.median.toFixed(2)} ms, p99 ${h.p99.toFixed(2)} ms`,
          ],
        };
      } finally {
        await closeClient(bare);
      }
    });
  },
};
