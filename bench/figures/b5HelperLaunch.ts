// B5: from spawning `letagents-desktop mcp` to its first MCP response (the initialize
// reply, relayed from a running app), against `node -e ''` start-up, alternating.
import type { Figure } from '../lib/figure';
import { bareNodeStart, helperFirstResponse } from '../lib/launch';
import { startServe } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const WARMUP = 3;
const RUNS = 25;

export const b5: Figure = {
  id: 'B5',
  what: 'helper launch to first MCP response (app already running)',
  target: '≤ 150 ms p50',
  async run() {
    const ws = workspace();
    const serve = await startServe(ws.dataDir);
    try {
      for (let i = 0; i < WARMUP; i++) {
        await helperFirstResponse(ws.dataDir, ws.agentDir);
        await bareNodeStart();
      }
      const ours: number[] = [];
      const floor: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        ours.push(await helperFirstResponse(ws.dataDir, ws.agentDir));
        await sleep(20);
        floor.push(await bareNodeStart());
        await sleep(20);
      }
      const o = summarize(ours);
      const f = summarize(floor);
      return {
        ours: { ...o, label: 'spawn → initialize reply', unit: 'ms' },
        floor: { ...f, label: "node -e ''", unit: 'ms' },
        ratio: o.median / f.median,
        met: o.median <= 150,
        notes: [`helper overhead over bare Node start: ${(o.median - f.median).toFixed(1)} ms (medians)`],
      };
    } finally {
      await serve.stop();
    }
  },
};
