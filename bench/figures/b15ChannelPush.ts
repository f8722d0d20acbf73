// B15 (issue 26): a registered Claude Code agent idle at its prompt (not inside
// wait_for_messages), its helper started by a process carrying the channel flag as Claude
// Code starts it; another agent mentions it. Each sample is the time from the send to the
// `notifications/claude/channel` arriving at the idle agent's client, through the helper.
// B3 (waiters woken by the same kind of send) runs in the same `npm run bench` for comparison.
import { callTool, joinAsWorker, type Worker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { agentProcessScript, cliBin, closeClient, connectHelper, connectStdio, startServe } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const ROUNDS = 100;
const ROOM = 'bench-channel';
/** Between rounds: the push's burst gathering is over and the agent is idle again. */
const GAP_MS = 120;

export const b15: Figure = {
  id: 'B15',
  what: 'mention → channel notification at an idle Claude Code agent (through its helper)',
  target: 'p99 ≤ 50 ms',
  async run() {
    const ws = workspace();
    const serve = await startServe(ws.dataDir);
    const workers: Worker[] = [];
    try {
      const idleClient = await connectStdio(
        [agentProcessScript, '--dangerously-load-development-channels', 'server:letagents', '--', process.execPath, cliBin, 'mcp', '--data-dir', ws.dataDir],
        ws.agentDir,
        'claude-code',
      );
      // Arrival time per message id; a push may come before the send's answer.
      const arrivedAt = new Map<string, number>();
      let heard: (() => void) | null = null;
      idleClient.fallbackNotificationHandler = async (n) => {
        if (n.method !== 'notifications/claude/channel') return;
        arrivedAt.set((n.params as { meta?: { message_id?: string } }).meta?.message_id ?? '', performance.now());
        heard?.();
      };
      workers.push(await joinAsWorker(idleClient, ROOM, 'Juniper'));
      const sender = await joinAsWorker(await connectHelper(ws.dataDir, ws.agentDir, 'bench-sender'), ROOM, 'Cedar');
      workers.push(sender);
      const pushMs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await sleep(GAP_MS);
        const sentAt = performance.now();
        const id = String((await callTool(sender.client, 'send_message', { worker_id: sender.workerId, text: `@Juniper round ${round}: please look at the build` })).id);
        const deadline = Date.now() + 10_000;
        while (!arrivedAt.has(id)) {
          if (Date.now() > deadline) throw new Error(`no channel notification for ${id} in round ${round}`);
          await new Promise<void>((resolve) => {
            heard = resolve;
            setTimeout(resolve, 100);
          });
        }
        const t = arrivedAt.get(id)!;
        pushMs.push(t - sentAt);
      }
      const o = summarize(pushMs);
      return {
        ours: { ...o, label: 'send → channel notification at the idle agent', unit: 'ms' },
        floor: null,
        ratio: null,
        met: o.p99 <= 50,
        notes: [
          `${ROUNDS} mentions, one at a time; the push waits out the burst gathering a wake uses (≥ 10 ms of quiet after the commit), so it cannot beat B3's wake by that much`,
        ],
      };
    } finally {
      await Promise.all(workers.map((w) => closeClient(w.client)));
      await serve.stop();
    }
  },
};
