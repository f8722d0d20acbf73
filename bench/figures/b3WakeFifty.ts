// B3: 50 agents wait in wait_for_messages (each through its own stdio helper); one agent
// sends a message to @all. Each sample is one waiter's time from the send to its result
// arriving, measured over several rounds.
import { callTool, type Worker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { startFleet, stopFleet } from '../lib/fleet';
import { startServe } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const WAITERS = 50;
const ROUNDS = 20;
const ROOM = 'bench-wake';
/** Time for every waiter's call to reach the server and park before the send. */
const PARK_MS = 400;

export const b3: Figure = {
  id: 'B3',
  what: `${WAITERS} agents waiting in wait_for_messages (through helpers); one message sent`,
  target: 'all woken: p99 ≤ 20 ms',
  async run() {
    const ws = workspace();
    const serve = await startServe(ws.dataDir);
    let fleet: Worker[] = [];
    try {
      fleet = await startFleet(ws.dataDir, ws.agentDir, ROOM, WAITERS + 1);
      const sender = fleet[WAITERS];
      const waiters = fleet.slice(0, WAITERS);
      // The first call without a cursor returns at once with one.
      const cursors = await Promise.all(
        waiters.map(async (w) => String((await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, timeout: 1_000 })).last_observed_message_id)),
      );
      const wakeMs: number[] = [];
      const lastWokenMs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        let sentAt = 0;
        const arrivals = waiters.map(async (w, i) => {
          const result = await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, after_message_id: cursors[i], timeout: 30_000 });
          const ms = performance.now() - sentAt;
          const messages = result.messages as Array<{ id: string }>;
          if (messages.length === 0) throw new Error(`waiter ${i} woke with no message in round ${round}`);
          cursors[i] = String(result.last_observed_message_id);
          return ms;
        });
        for (const arrival of arrivals) arrival.catch(() => undefined); // failures surface in Promise.all below
        await sleep(PARK_MS);
        sentAt = performance.now();
        await callTool(sender.client, 'send_message', { worker_id: sender.workerId, text: `@all round ${round}: please pick up the next task` });
        const round_ = await Promise.all(arrivals);
        wakeMs.push(...round_);
        lastWokenMs.push(Math.max(...round_));
      }
      const o = summarize(wakeMs);
      const last = summarize(lastWokenMs);
      return {
        ours: { ...o, label: 'send → each waiter has its result', unit: 'ms' },
        floor: null,
        ratio: null,
        met: o.p99 <= 20,
        notes: [
          `${ROUNDS} rounds × ${WAITERS} waiters; last of ${WAITERS} woken per round: median ${last.median.toFixed(1)} ms, max ${last.max.toFixed(1)} ms`,
          'the send is a broadcast (@all): with more than 3 active workers an unaddressed agent message is silent by design',
        ],
      };
    } finally {
      await stopFleet(fleet);
      await serve.stop();
    }
  },
};
