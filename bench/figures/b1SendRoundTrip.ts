// B1: send_message through the stdio helper, the agent socket, the MCP server and a SQLite
// commit, against a no-op tool on a bare MCP SDK stdio server, driven by the same SDK
// client. Beside it the honest floor (issue 38): a bare SDK server behind one pass-through
// process, its tool one SQLite commit, the least any send through a helper costs; with
// `--baseline` the same send on another build (before/after in one run); with `--hops` the
// per-hop table. All measured in alternating blocks so machine noise hits every one alike.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, joinAsWorker } from '../lib/agents';
import { currentBuild, type Build } from '../lib/builds';
import type { Figure, FigureOutcome } from '../lib/figure';
import { startCommitFloor } from '../lib/floors';
import { chainOf, collectHopTrace, commitWithin, hopTable, startHopTrace, STEP_NAMES, type Chain } from '../lib/hops';
import { closeClient, connectBareServer, connectHelper, startServe, tempDir, type Serve } from '../lib/processes';
import { alternatingBlocks, summarize, timed } from '../lib/stats';
import { workspace } from '../lib/workspace';

const WARMUP = 100;
const BLOCKS = 10;
const PER_BLOCK = 100;

/** One build's app and helper, an agent registered in a room of its own. */
interface SendPath {
  readonly build: Build;
  send(): Promise<unknown>;
  /** get_current_room: the same hops with next to no tool work. */
  read(): Promise<unknown>;
  stop(): Promise<void>;
}

async function sendPath(build: Build, agentDir: string): Promise<SendPath> {
  const ws = workspace();
  const serve: Serve = await startServe(ws.dataDir, undefined, undefined, build.cliBin);
  let helper: Client | null = null;
  try {
    helper = await connectHelper(ws.dataDir, agentDir, undefined, { bin: build.cliBin });
    const worker = await joinAsWorker(helper, 'bench-b1', 'Bench01');
    let n = 0;
    const client = helper;
    return {
      build,
      send: () => callTool(client, 'send_message', { worker_id: worker.workerId, text: `bench message ${++n}` }),
      read: () => callTool(client, 'get_current_room'),
      async stop() {
        await closeClient(client);
        await serve.stop();
      },
    };
  } catch (error) {
    if (helper) await closeClient(helper);
    await serve.stop();
    throw error;
  }
}

const SEND_HOPS = ['agent.send', 'helper.agent_in', 'helper.app_out', 'app.read', 'app.call', 'app.commit', 'app.answer', 'helper.app_in', 'helper.agent_out', 'agent.recv'];
const READ_HOPS = ['agent.send', 'helper.agent_in', 'helper.app_out', 'app.read', 'app.call', 'app.answer', 'helper.app_in', 'helper.agent_out', 'agent.recv'];

export const b1: Figure = {
  id: 'B1',
  what: 'send_message round trip: stdio helper → socket → server → SQLite commit',
  target: 'p50 ≤ 2× floor',
  async run(ctx) {
    if (ctx.hops) startHopTrace(tempDir('la-hops-'));
    const ws = workspace();
    const paths: SendPath[] = [];
    let bare: Client | null = null;
    let honest: Awaited<ReturnType<typeof startCommitFloor>> | null = null;
    let rows: FigureOutcome[];
    try {
      paths.push(await sendPath(currentBuild, ws.agentDir));
      if (ctx.baseline) paths.push(await sendPath(ctx.baseline, ws.agentDir));
      bare = await connectBareServer(ws.agentDir);
      honest = await startCommitFloor(ws.agentDir);
      let n = 0;
      const bareClient = bare;
      const honestClient = honest.client;
      const floor = () => callTool(bareClient, 'noop', { text: `bench message ${++n}` });
      const commitFloor = () => callTool(honestClient, 'commit', { text: `bench message ${++n}` });
      const calls = [...paths.map((p) => p.send), floor, commitFloor, paths[0].read];
      for (const call of calls) for (let i = 0; i < WARMUP; i++) await call();
      const samples = await alternatingBlocks(BLOCKS, PER_BLOCK, calls.map((call) => () => timed(call)));
      const [oursMs, ...rest] = samples;
      const beforeMs = ctx.baseline ? rest.shift()! : null;
      const [floorMs, honestMs, readMs] = rest;
      const o = summarize(oursMs);
      const f = summarize(floorMs);
      const h = summarize(honestMs);
      const r = summarize(readMs);
      const floorMeasured = { ...f, label: 'no-op tool, bare SDK stdio server', unit: 'ms' };
      rows = [
        {
          ours: { ...o, label: 'send_message via helper, one commit each', unit: 'ms' },
          floor: floorMeasured,
          ratio: o.median / f.median,
          met: o.median / f.median <= 2,
          notes: [
            `floor p99 ${f.p99.toFixed(2)} ms; ${WARMUP} warm-up calls each, then ${BLOCKS} alternating blocks of ${PER_BLOCK}`,
            `${(o.median / h.median).toFixed(2)}× the honest floor (B1 floor below: the same SDK behind one pass-through process, one SQLite commit per call)`,
            `breakdown: get_current_room through the same helper (the helper + socket hop, next to no tool work) median ${r.median.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`,
          ],
        },
        {
          id: 'B1 floor',
          what: 'the honest floor of B1: a bare SDK server behind one pass-through process (bench/fixtures/bareRelay.mjs), its tool one SQLite commit (WAL, synchronous=NORMAL)',
          target: '—',
          ours: { ...h, label: 'bare SDK via a pass-through process, one commit each', unit: 'ms' },
          floor: floorMeasured,
          ratio: h.median / f.median,
          met: null,
          notes: [`the architecture's own floor is ${(h.median / f.median).toFixed(2)}× the bare stdio call: a 2× target leaves ${Math.max(0, 2 * f.median - h.median).toFixed(2)} ms for everything of ours`],
        },
      ];
      if (beforeMs) {
        const b = summarize(beforeMs);
        rows.push({
          id: 'B1 before',
          target: 'p50 ≤ 2× floor',
          ours: { ...b, label: `send_message via helper, ${ctx.baseline!.label}`, unit: 'ms' },
          floor: floorMeasured,
          ratio: b.median / f.median,
          met: b.median / f.median <= 2,
          notes: [`this checkout ÷ ${ctx.baseline!.label}: median ${(o.median / b.median).toFixed(2)}×, p99 ${(o.p99 / b.p99).toFixed(2)}× (same run, alternating blocks)`],
        });
      }
    } finally {
      for (const path of paths) await path.stop();
      if (bare) await closeClient(bare);
      await honest?.stop();
    }
    // The processes wrote their marks as they exited.
    if (ctx.hops) rows[0].notes.push(...hopTables());
    return rows;
  },
};

/** The per-hop tables of this checkout's sends and reads (its processes traced; a baseline's are not). */
function hopTables(): string[] {
  const trace = collectHopTrace();
  const sends: Chain[] = [];
  const reads: Chain[] = [];
  for (const [key, marks] of trace.requests) {
    const read = chainOf(marks, READ_HOPS);
    if (!read) continue;
    const commit = commitWithin(trace, trace.appOf.get(key), marks.get('app.call')!, marks.get('app.answer')!);
    if (commit) sends.push(chainOf(new Map([...marks, ['app.commit', commit.t]]), SEND_HOPS)!);
    else reads.push(read);
  }
  return [...hopTable('per hop, send_message', sends, STEP_NAMES), ...hopTable('per hop, get_current_room', reads, STEP_NAMES)];
}
