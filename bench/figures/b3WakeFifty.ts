// B3: 50 agents wait in wait_for_messages (each through its own stdio helper); one agent
// sends a message to @all. Each sample is one waiter's time from the send to its result
// arriving, measured over several rounds. Beside it the honest floor (issue 38): one line
// fanned out by a hub through 50 pass-through processes to their readers, what waking fifty
// agents costs on this machine before any work of ours; with `--baseline` the same rounds on
// another build, alternating round by round; with `--hops` the per-hop table.
import { callTool, type Worker } from '../lib/agents';
import { currentBuild, type Build } from '../lib/builds';
import type { Figure, FigureOutcome } from '../lib/figure';
import { startFleet, stopFleet } from '../lib/fleet';
import { startFanoutFloor } from '../lib/floors';
import { chainOf, collectHopTrace, hopTable, startHopTrace, STEP_NAMES, type Chain, type Trace } from '../lib/hops';
import { lastAnswerAt, startServe, tempDir, type Serve } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const WAITERS = 50;
const ROUNDS = 20;
const ROOM = 'bench-wake';
/** Time for every waiter's call to reach the server and park before the send. */
const PARK_MS = 400;

/** One build's app with fifty waiting agents and a sender. */
interface WakeFleet {
  readonly build: Build;
  /**
   * One round: every waiter parks, the sender sends; each waiter's ms from the send until its
   * process has the result (`had`), and until the SDK client has checked it (`checked`).
   */
  round(round: number): Promise<{ had: number[]; checked: number[] }>;
  stop(): Promise<void>;
}

async function startWakeFleet(build: Build): Promise<WakeFleet> {
  const ws = workspace();
  const serve: Serve = await startServe(ws.dataDir, undefined, undefined, build.cliBin);
  let fleet: Worker[] = [];
  try {
    fleet = await startFleet(ws.dataDir, ws.agentDir, ROOM, WAITERS + 1, 0, build.cliBin);
  } catch (error) {
    await serve.stop();
    throw error;
  }
  const sender = fleet[WAITERS];
  const waiters = fleet.slice(0, WAITERS);
  // The first call without a cursor returns at once with one.
  const cursors = await Promise.all(
    waiters.map(async (w) => String((await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, timeout: 1_000 })).last_observed_message_id)),
  );
  return {
    build,
    async round(round) {
      let sentAt = 0;
      const arrivals = waiters.map(async (w, i) => {
        const result = await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, after_message_id: cursors[i], timeout: 30_000 });
        const checked = performance.now() - sentAt;
        const messages = result.messages as Array<{ id: string }>;
        if (messages.length === 0) throw new Error(`waiter ${i} woke with no message in round ${round}`);
        cursors[i] = String(result.last_observed_message_id);
        return { had: lastAnswerAt(w.client)! - sentAt, checked };
      });
      for (const arrival of arrivals) arrival.catch(() => undefined); // failures surface in Promise.all below
      await sleep(PARK_MS);
      sentAt = performance.now();
      await callTool(sender.client, 'send_message', { worker_id: sender.workerId, text: `@all round ${round}: please pick up the next task` });
      const times = await Promise.all(arrivals);
      return { had: times.map((t) => t.had), checked: times.map((t) => t.checked) };
    },
    async stop() {
      await stopFleet(fleet);
      await serve.stop();
    },
  };
}

const WAITER_HOPS = ['app.woken', 'app.answer', 'helper.app_in', 'helper.agent_out', 'agent.recv'];

export const b3: Figure = {
  id: 'B3',
  what: `${WAITERS} agents waiting in wait_for_messages (through helpers); one message sent`,
  target: 'all woken: p99 ≤ 20 ms',
  async run(ctx) {
    if (ctx.hops) startHopTrace(tempDir('la-hops-'));
    const fleets: WakeFleet[] = [];
    let fanout: Awaited<ReturnType<typeof startFanoutFloor>> | null = null;
    const wakeMs = new Map<WakeFleet, number[]>();
    const checkedMs = new Map<WakeFleet, number[]>();
    const lastMs = new Map<WakeFleet, number[]>();
    const floorMs: number[] = [];
    const floorLastMs: number[] = [];
    try {
      fleets.push(await startWakeFleet(currentBuild));
      if (ctx.baseline) fleets.push(await startWakeFleet(ctx.baseline));
      fanout = await startFanoutFloor(WAITERS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const fleet of fleets) {
          const { had, checked } = await fleet.round(round);
          wakeMs.set(fleet, [...(wakeMs.get(fleet) ?? []), ...had]);
          checkedMs.set(fleet, [...(checkedMs.get(fleet) ?? []), ...checked]);
          lastMs.set(fleet, [...(lastMs.get(fleet) ?? []), Math.max(...had)]);
        }
        const floorTimes = await fanout.wake();
        floorMs.push(...floorTimes);
        floorLastMs.push(Math.max(...floorTimes));
      }
    } finally {
      for (const fleet of fleets) await fleet.stop();
      fanout?.stop();
    }
    const f = summarize(floorMs);
    const floor = { ...f, label: `one line through a hub and ${WAITERS} pass-through processes to their readers`, unit: 'ms' };
    const rowOf = (fleet: WakeFleet): FigureOutcome => {
      const o = summarize(wakeMs.get(fleet)!);
      const last = summarize(lastMs.get(fleet)!);
      const checked = summarize(checkedMs.get(fleet)!);
      return {
        ...(fleet.build === currentBuild ? {} : { id: 'B3 before' }),
        ours: { ...o, label: fleet.build === currentBuild ? 'send → each waiter\'s process has its result' : `send → each waiter's process has its result, ${fleet.build.label}`, unit: 'ms' },
        floor,
        ratio: o.median / f.median,
        met: o.p99 <= 20,
        notes: [
          `${ROUNDS} rounds × ${WAITERS} waiters; last of ${WAITERS} woken per round: median ${last.median.toFixed(1)} ms, max ${last.max.toFixed(1)} ms`,
          `"has its result": the waiter's transport read and parsed the answer. Counted until its SDK client also checked the result (JSON-RPC and output schemas), which the fifty clients do one after another in this one process: median ${checked.median.toFixed(1)} ms, p99 ${checked.p99.toFixed(1)} ms`,
          `floor: p99 ${f.p99.toFixed(1)} ms, last of ${WAITERS} per round median ${summarize(floorLastMs).median.toFixed(1)} ms (bench/fixtures/bareHub.mjs, bareRelay.mjs)`,
          'the send is a broadcast (@all): with more than 3 active workers an unaddressed agent message is silent by design',
        ],
      };
    };
    const rows = fleets.map(rowOf);
    if (fleets.length > 1) {
      const [now, before] = fleets.map((fl) => summarize(wakeMs.get(fl)!));
      rows[1].notes.unshift(`this checkout ÷ ${fleets[1].build.label}: median ${(now.median / before.median).toFixed(2)}×, p99 ${(now.p99 / before.p99).toFixed(2)}× (same run, alternating rounds)`);
    }
    if (ctx.hops) rows[0].notes.push(...wakeHops(collectHopTrace()));
    return rows;
  },
};

/** The sender's hops up to its commit, and each woken waiter's from that commit on. */
function wakeHops(trace: Trace): string[] {
  const sends: Chain[] = [];
  const commits: number[] = [];
  for (const marks of trace.requests.values()) {
    const send = chainOf(marks, ['agent.send', 'helper.agent_in', 'helper.app_out', 'app.read', 'app.call', 'app.answer']);
    if (!send || marks.has('app.woken')) continue;
    // A send's own commit falls between its call and its answer.
    for (const perApp of trace.messages.values()) {
      for (const byHop of perApp.values()) {
        const t = byHop.get('app.commit');
        if (t !== undefined && t >= marks.get('app.call')! && t <= marks.get('app.answer')!) {
          sends.push([...send.slice(0, 5), ['app.commit', t]]);
          commits.push(t);
        }
      }
    }
  }
  commits.sort((a, b) => a - b);
  const waiters: Chain[] = [];
  for (const marks of trace.requests.values()) {
    const chain = chainOf(marks, WAITER_HOPS);
    if (!chain) continue;
    // The commit that woke it: the last one before it resumed.
    const commit = commits.filter((t) => t <= chain[0][1]).at(-1);
    if (commit !== undefined) waiters.push([['app.commit', commit], ...chain]);
  }
  return [...hopTable('per hop, the send up to its commit', sends, STEP_NAMES), ...hopTable('per hop, each waiter from that commit', waiters, STEP_NAMES)];
}

