// B10 (issue 12): an agent on machine A @mentions one waiting on machine B, two `serve`
// instances with their own data folders on one local PostgreSQL database. Each sample is
// the time from A's send to B's waiter having its result. The floor (issue 38) is the bare
// database part of such a wake: a SERIALIZABLE commit of one row with NOTIFY, a LISTENing
// connection reading the row back. Beside it the same wake within one instance, in a room of
// this computer; with `--baseline` the same wakes on another build (its own database); with
// `--hops` the per-hop table. All in alternating blocks.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, joinAsWorker, type Worker } from '../lib/agents';
import { currentBuild, type Build } from '../lib/builds';
import type { Figure, FigureOutcome } from '../lib/figure';
import { startNotifyFloor } from '../lib/floors';
import { chainOf, collectHopTrace, hopTable, startHopTrace, STEP_NAMES, type Chain, type Trace } from '../lib/hops';
import { closeClient, connectHelper, tempDir } from '../lib/processes';
import { alternatingBlocks, sleep, summarize, type Summary } from '../lib/stats';
import { startTeam, TEAM, type BenchTeam } from '../lib/team';

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

/** One build's two machines: a wake across them, and the same wake within B in a local room. */
interface WakePair {
  readonly build: Build;
  cross(round: number): Promise<number>;
  local(round: number): Promise<number>;
}

async function startPair(team: BenchTeam, build: Build, clients: Client[]): Promise<WakePair> {
  const [a, b] = [await team.machine(build.cliBin), await team.machine(build.cliBin)];
  const connect = async (dataDir: string, agentDir: string) => {
    const client = await connectHelper(dataDir, agentDir, undefined, { bin: build.cliBin });
    clients.push(client);
    return client;
  };
  // Across machines: the sender on A, the waiter on B, in the team's room.
  const crossSender = await joinAsWorker(await connect(a.ws.dataDir, a.ws.agentDir), 'bench-b10', 'Sender', TEAM);
  const crossWaiter = await joinAsWorker(await connect(b.ws.dataDir, b.ws.agentDir), 'bench-b10', 'Waiter', TEAM);
  // Within one instance: both on B, in a room of this computer.
  const localSender = await joinAsWorker(await connect(b.ws.dataDir, b.ws.agentDir), 'bench-b10-local', 'Sender', 'local');
  const localWaiter = await joinAsWorker(await connect(b.ws.dataDir, b.ws.agentDir), 'bench-b10-local', 'Waiter', 'local');
  const cursorOf = async (w: Worker) => ({ id: String((await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, timeout: 1_000 })).last_observed_message_id) });
  const [crossCursor, localCursor] = [await cursorOf(crossWaiter), await cursorOf(localWaiter)];
  return {
    build,
    cross: (round) => wake(crossSender, crossWaiter, crossCursor, round),
    local: (round) => wake(localSender, localWaiter, localCursor, round),
  };
}

const ms = (s: Summary) => `${s.median.toFixed(1)} ms (p99 ${s.p99.toFixed(1)} ms)`;

export const b10: Figure = {
  id: 'B10',
  what: 'cross-machine wake: send on A → the agent waiting on B has the message (two serve instances, local PostgreSQL)',
  target: 'p50 ≤ 10 ms, p99 ≤ 50 ms',
  async run(ctx) {
    if (ctx.hops) startHopTrace(tempDir('la-hops-'));
    const team = await startTeam();
    const clients: Client[] = [];
    let notify: Awaited<ReturnType<typeof startNotifyFloor>> | null = null;
    let rows: FigureOutcome[];
    try {
      const pairs = [await startPair(team, currentBuild, clients)];
      if (ctx.baseline) pairs.push(await startPair(team, ctx.baseline, clients));
      notify = await startNotifyFloor(await team.url());
      let round = 0;
      const measures = [...pairs.flatMap((p) => [() => p.cross(round++), () => p.local(round++)]), notify.wake];
      for (let i = 0; i < WARMUP; i++) for (const measure of measures) await measure();
      const samples = await alternatingBlocks(BLOCKS, PER_BLOCK, measures);
      const f = summarize(samples.at(-1)!);
      const floor = { ...f, label: 'bare PostgreSQL: a committed row + NOTIFY, read back by the LISTENing connection', unit: 'ms' };
      rows = pairs.map((pair, i): FigureOutcome => {
        const o = summarize(samples[2 * i]);
        const local = summarize(samples[2 * i + 1]);
        const now = pair.build === currentBuild;
        return {
          ...(now ? {} : { id: 'B10 before' }),
          ours: { ...o, label: now ? 'send on A → waiter on B has it (team room)' : `send on A → waiter on B has it, ${pair.build.label}`, unit: 'ms' },
          floor,
          ratio: o.median / f.median,
          met: o.median <= 10 && o.p99 <= 50,
          notes: [
            `${BLOCKS} alternating blocks of ${PER_BLOCK} wakes each way after ${WARMUP} warm-ups; floor p99 ${f.p99.toFixed(1)} ms`,
            `the same wake within one instance (a room of this computer): ${ms(local)}; across machines adds ${(o.median - local.median).toFixed(1)} ms at the median (commit on A, NOTIFY, B reads the room from PostgreSQL)`,
          ],
        };
      });
      if (pairs.length > 1) {
        const [now, before] = [summarize(samples[0]), summarize(samples[2])];
        rows[1].notes.unshift(`this checkout ÷ ${pairs[1].build.label}: median ${(now.median / before.median).toFixed(2)}×, p99 ${(now.p99 / before.p99).toFixed(2)}× (same run, alternating blocks)`);
      }
    } finally {
      for (const client of clients) await closeClient(client);
      await notify?.stop();
      await team.stop();
    }
    if (ctx.hops) rows[0].notes.push(...crossHops(collectHopTrace()));
    return rows;
  },
};

/** Across machines: the sender's hops on A up to its commit, then B's hint, wake and answer. */
function crossHops(trace: Trace): string[] {
  const chains: Chain[] = [];
  for (const [key, marks] of trace.requests) {
    const waiter = chainOf(marks, ['app.woken', 'app.answer', 'helper.app_in', 'helper.agent_out', 'agent.recv']);
    const waiterApp = trace.appOf.get(key);
    const called = marks.get('app.call');
    if (!waiter || waiterApp === undefined || called === undefined) continue;
    // The message that woke it: committed by another app, its hint handed on here while the wait waited.
    let best: Chain | null = null;
    for (const perApp of trace.messages.values()) {
      const here = perApp.get(waiterApp);
      const handedOn = here?.get('app.hint_out');
      const heard = here?.get('app.hint_in');
      if (handedOn === undefined || heard === undefined || handedOn < called || handedOn > waiter[0][1]) continue;
      for (const [pid, byHop] of perApp) {
        const committed = byHop.get('app.commit_sent');
        if (pid === waiterApp || committed === undefined) continue;
        if (!best || handedOn > best[2][1]) best = [['app.commit_sent', committed], ['app.hint_in', heard], ['app.hint_out', handedOn]];
      }
    }
    if (best) chains.push([...best, ...waiter]);
  }
  return hopTable('per hop, across machines from A\'s commit', chains, STEP_NAMES);
}
