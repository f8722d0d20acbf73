// B10 (issue 12): an agent on machine A @mentions one waiting on machine B, two `serve`
// instances with their own data folders on one local PostgreSQL database. Each sample is
// the time from A's send to B's waiter having its result. The floor is the same wake
// inside one instance, in a room of this computer, measured in alternating blocks.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, joinAsWorker, type Worker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { closeClient, connectHelper } from '../lib/processes';
import { alternatingBlocks, sleep, summarize } from '../lib/stats';
import { startTeam, TEAM } from '../lib/team';

const WARMUP = 10;
const BLOCKS = 6;
const PER_BLOCK = 25;
/** Time for the waiter's call to reach its app and park before the send. */
const PARK_MS = 150;

/** One wake: the waiter parks, the sender mentions it, the time until the waiter has the message. */
async function wake(sender: Worker, waiter: Worker, cursor: { id: string }, round: number): Promise<number> {
  let sentAt = 0;
  const arrival = callTool(waiter.client, 'wait_for_messages', { worker_id: waiter.workerId, after_message_id: cursor.id, timeout: 30_000 }).then((result) => {
    const ms = performance.now() - sentAt;
    if ((result.messages as unknown[]).length === 0) throw new Error(`the waiter woke with no message in round ${round}`);
    cursor.id = String(result.last_observed_message_id);
    return ms;
  });
  arrival.catch(() => undefined); // a failure surfaces below
  await sleep(PARK_MS);
  sentAt = performance.now();
  await callTool(sender.client, 'send_message', { worker_id: sender.workerId, text: `@Waiter round ${round}: your turn` });
  return arrival;
}

export const b10: Figure = {
  id: 'B10',
  what: 'cross-machine wake: send on A → the agent waiting on B has the message (two serve instances, local PostgreSQL)',
  target: 'p50 ≤ 10 ms, p99 ≤ 50 ms',
  async run() {
    const team = await startTeam();
    const clients: Client[] = [];
    try {
      const [a, b] = [await team.machine(), await team.machine()];
      const connect = async (dataDir: string, agentDir: string) => {
        const client = await connectHelper(dataDir, agentDir);
        clients.push(client);
        return client;
      };
      // Across machines: the sender on A, the waiter on B, in the team's room.
      const crossSender = await joinAsWorker(await connect(a.ws.dataDir, a.ws.agentDir), 'bench-b10', 'Sender', TEAM);
      const crossWaiter = await joinAsWorker(await connect(b.ws.dataDir, b.ws.agentDir), 'bench-b10', 'Waiter', TEAM);
      // The floor: both on B, in a room of this computer.
      const localSender = await joinAsWorker(await connect(b.ws.dataDir, b.ws.agentDir), 'bench-b10-local', 'Sender', 'local');
      const localWaiter = await joinAsWorker(await connect(b.ws.dataDir, b.ws.agentDir), 'bench-b10-local', 'Waiter', 'local');
      const cursorOf = async (w: Worker) => ({ id: String((await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, timeout: 1_000 })).last_observed_message_id) });
      const [crossCursor, localCursor] = [await cursorOf(crossWaiter), await cursorOf(localWaiter)];
      let round = 0;
      for (let i = 0; i < WARMUP; i++) {
        await wake(crossSender, crossWaiter, crossCursor, round++);
        await wake(localSender, localWaiter, localCursor, round++);
      }
      const [crossMs, localMs] = await alternatingBlocks(BLOCKS, PER_BLOCK, [
        () => wake(crossSender, crossWaiter, crossCursor, round++),
        () => wake(localSender, localWaiter, localCursor, round++),
      ]);
      const o = summarize(crossMs);
      const f = summarize(localMs);
      return {
        ours: { ...o, label: 'send on A → waiter on B has it (team room)', unit: 'ms' },
        floor: { ...f, label: 'the same wake within one instance (local room)', unit: 'ms' },
        ratio: o.median / f.median,
        met: o.median <= 10 && o.p99 <= 50,
        notes: [
          `${BLOCKS} alternating blocks of ${PER_BLOCK} wakes each way after ${WARMUP} warm-ups; floor p99 ${f.p99.toFixed(1)} ms`,
          `across machines adds ${(o.median - f.median).toFixed(1)} ms at the median (commit on A, NOTIFY, B reads the room from PostgreSQL)`,
          'a woken wait gathers the rest of a burst (no commit for 10 ms, issue 18): about 10 ms of every sample, both ways, is that window',
        ],
      };
    } finally {
      for (const client of clients) await closeClient(client);
      await team.stop();
    }
  },
};
