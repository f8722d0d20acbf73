// B7: the core's resident memory (serve's RSS) with 50 connected agents, each a registered
// worker that has posted and is waiting in wait_for_messages. The same process before any
// agent connected is the reference.
import { callTool, type Worker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { startFleet, stopFleet } from '../lib/fleet';
import { residentMb } from '../lib/memory';
import { startServe } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const AGENTS = 50;
const SAMPLES = 20;
const ROOM = 'bench-memory';

async function sampleRss(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const mb = residentMb(pid);
    if (mb === null) throw new Error('/proc/<pid>/status is not readable on this system');
    out.push(mb);
    await sleep(100);
  }
  return out;
}

export const b7: Figure = {
  id: 'B7',
  what: `core memory with ${AGENTS} connected agents`,
  target: 'RSS ≤ 200 MB',
  async run() {
    const ws = workspace();
    const serve = await startServe(ws.dataDir);
    let fleet: Worker[] = [];
    const waits: Array<Promise<unknown>> = [];
    try {
      await sleep(500);
      const idle = await sampleRss(serve.pid);
      fleet = await startFleet(ws.dataDir, ws.agentDir, ROOM, AGENTS);
      for (const [i, w] of fleet.entries()) {
        await callTool(w.client, 'send_message', { worker_id: w.workerId, text: `@all ${w.workerId.slice(-6)} here, starting on task_${i + 1}` });
      }
      for (const w of fleet) {
        const first = await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, timeout: 1_000 });
        const parked = callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, after_message_id: first.last_observed_message_id, timeout: 60_000 });
        parked.catch(() => undefined); // ended by the clients' close at the end
        waits.push(parked);
      }
      await sleep(500);
      const loaded = await sampleRss(serve.pid);
      const o = summarize(loaded);
      const f = summarize(idle);
      return {
        ours: { ...o, label: `serve RSS, ${AGENTS} workers waiting`, unit: 'MB' },
        floor: { ...f, label: 'serve RSS, no agent', unit: 'MB' },
        ratio: o.median / f.median,
        met: o.p99 <= 200,
        notes: [`${SAMPLES} samples of /proc/<pid>/status VmRSS, 100 ms apart; about ${((o.median - f.median) / AGENTS).toFixed(2)} MB per agent`],
      };
    } finally {
      await stopFleet(fleet);
      await serve.stop();
    }
  },
};
