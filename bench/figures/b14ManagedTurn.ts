// B14: a mention of a managed agent → that agent's first MCP call (its register_agent_session
// reaching the app), for each provider: the real Claude Code and Codex CLIs, each against a
// fake model server that answers at once. The reference is the same runs' mention → the
// CLI's first model request (the CLI starting up); the difference is our helper connecting.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { callTool, identityIn, say, startFakeModel, type FakeModel, type FakeProvider } from '../../test/support/fakeModels';
import { personApi } from '../lib/personApi';
import type { Figure, FigureOutcome } from '../lib/figure';
import { repoRoot, tempDir } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';

const WARMUP = 2;
const RUNS = 25;
const ROOM = 'bench-managed';
const PROVIDERS: ReadonlyArray<{ id: FakeProvider; name: string }> = [
  { id: 'claude_code', name: 'Claude Code' },
  { id: 'codex', name: 'Codex' },
];

export const b14: Figure = {
  id: 'B14',
  what: 'mention → the managed agent’s first MCP call (real CLI, fake model answering at once)',
  target: 'p50 and p99 reported',
  async run(ctx) {
    const rows: FigureOutcome[] = [];
    for (const provider of PROVIDERS) rows.push(await measure(provider, ctx.log));
    return rows;
  },
};

async function measure(provider: { id: FakeProvider; name: string }, log: (line: string) => void): Promise<FigureOutcome> {
  const root = tempDir();
  const folder = join(root, 'work');
  mkdirSync(folder);
  const model: FakeModel = await startFakeModel(provider.id, join(root, 'home'));
  const env = { ...process.env, ...model.env, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
  let host: AppHost | null = null;
  try {
    host = await startAppHost({ dataDir: join(root, 'data'), env, home: join(root, 'home'), secrets: createMemorySecretStore() });
    const app = host.app;
    const call = personApi(app, env);
    await app.core.store.write((tx) => ensureRoom(tx, { roomId: ROOM, kind: 'named' }));
    const agent = await call('agents.add', { provider: provider.id, folder, roomId: ROOM, name: 'Bench', permissions: 'read_only', turnsPerHour: null });
    const agentId = agent.agentId as string;
    const sessionId = agent.sessionId as string;
    let firstCall: ((at: number) => void) | null = null;
    let turnOpened: ((at: number) => void) | null = null;
    app.core.bus.on('worker.changed', (e) => e.sessionId === sessionId && firstCall?.(performance.now()));
    app.core.bus.on('agent.activity', (e) => e.agentId === agentId && turnOpened?.(performance.now()));

    const ours: number[] = [];
    const reference: number[] = [];
    const scheduling: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      model.script.push('Bench', callTool('register_agent_session', (r) => identityIn(r)), say('Done.'));
      const called = new Promise<number>((resolve) => (firstCall = resolve));
      const opened = new Promise<number>((resolve) => (turnOpened = resolve));
      const requestsBefore = model.script.requests.length;
      const mentioned = performance.now();
      await call('messages.send', { roomId: ROOM, text: `@Bench ping ${i}` });
      const calledAt = await called;
      const openedAt = await opened;
      firstCall = null;
      turnOpened = null;
      const modelAt = model.script.requests[requestsBefore].at;
      await turnEnded(app, agentId);
      if (i < WARMUP) continue;
      ours.push(calledAt - mentioned);
      reference.push(modelAt - mentioned);
      scheduling.push(openedAt - mentioned);
      await sleep(20);
    }
    const o = summarize(ours);
    const f = summarize(reference);
    const s = summarize(scheduling);
    log(`${provider.name}: mention → first MCP call median ${o.median.toFixed(0)} ms`);
    return {
      id: `B14 ${provider.id === 'claude_code' ? 'claude' : 'codex'}`,
      ours: { ...o, label: `${provider.name}: mention → first MCP call`, unit: 'ms' },
      floor: { ...f, label: `${provider.name}: mention → first model request`, unit: 'ms' },
      ratio: o.median / f.median,
      met: null,
      notes: [
        `the app's part, mention → turn started: median ${s.median.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`,
        `first model request → first MCP call (the CLI connects our helper, the model answers at once): median ${(o.median - f.median).toFixed(0)} ms`,
      ],
    };
  } finally {
    await host?.close();
    await model.close();
  }
}

async function turnEnded(app: AppHost['app'], agentId: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const record = await app.agents.get(agentId);
    if (record.turnState === 'idle' && record.lastTurn && record.lastTurn.status !== 'running') return;
    await sleep(10);
  }
  throw new Error('the managed turn did not end within 6 s');
}
