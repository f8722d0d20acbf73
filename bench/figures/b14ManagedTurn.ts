// B14: a mention of a managed agent → that agent's first MCP call (its register_agent_session
// reaching the app), for each provider: the real Claude Code, Codex, Gemini CLI, OpenCode and GitHub Copilot CLIs, each against a
// fake model server that answers at once. The reference is the same runs' mention → the
// CLI's first model request (the CLI starting up); the difference is our helper connecting.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { callTool, identityIn, say, startFakeModel, type FakeModel, type FakeProvider } from '../../test/support/fakeModels';
import { personApi } from '../lib/personApi';
import type { Figure, FigureOutcome } from '../lib/figure';
import { endProcesses, tempDir } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { pinnedCliBin } from '../../test/support/pinnedClis';

const WARMUP = 2;
const ROOM = 'bench-managed';
/** One provider's runs, at most: past it that row is reported as not measured and the next provider runs. */
const PROVIDER_LIMIT_MS = 4 * 60_000;
/** OpenCode takes seconds per run on a shared machine: fewer runs keep the figure within minutes. */
const PROVIDERS: ReadonlyArray<{ id: FakeProvider; name: string; short: string; runs: number }> = [
  { id: 'claude_code', name: 'Claude Code', short: 'claude', runs: 25 },
  { id: 'codex', name: 'Codex', short: 'codex', runs: 25 },
  { id: 'gemini', name: 'Gemini CLI', short: 'gemini', runs: 10 },
  { id: 'opencode', name: 'OpenCode', short: 'opencode', runs: 5 },
  { id: 'copilot', name: 'GitHub Copilot CLI', short: 'copilot', runs: 10 },
];

export const b14: Figure = {
  id: 'B14',
  what: 'mention → the managed agent’s first MCP call (real CLI, fake model answering at once)',
  target: 'p50 and p99 reported',
  timeLimitMs: PROVIDERS.length * PROVIDER_LIMIT_MS + 60_000,
  async run(ctx) {
    const rows: FigureOutcome[] = [];
    // BENCH_B14_PROVIDERS=gemini,opencode measures only those (a full run takes minutes).
    const only = process.env.BENCH_B14_PROVIDERS?.split(',').map((p) => p.trim());
    for (const provider of PROVIDERS.filter((p) => !only || only.includes(p.short))) rows.push(await withinLimit(provider, ctx.log));
    return rows;
  },
};

/** One provider's row, or, when it fails or passes its limit, a row saying so (the next provider still runs). */
async function withinLimit(provider: (typeof PROVIDERS)[number], log: (line: string) => void): Promise<FigureOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const overTime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it took longer than ${PROVIDER_LIMIT_MS / 60_000} minutes`)), PROVIDER_LIMIT_MS);
  });
  try {
    return await Promise.race([measure(provider, log), overTime]);
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    log(`${provider.name}: not measured: ${why}`);
    await endProcesses();
    return { id: `B14 ${provider.short}`, ours: null, floor: null, ratio: null, met: null, notes: [], notMeasured: `${provider.name}: ${why}` };
  } finally {
    clearTimeout(timer);
  }
}

async function measure(provider: (typeof PROVIDERS)[number], log: (line: string) => void): Promise<FigureOutcome> {
  // Gemini CLI skips a system settings file below a world-writable folder such as /tmp.
  const root = provider.id === 'gemini' ? privateDir() : tempDir();
  const folder = join(root, 'work');
  mkdirSync(folder);
  const model: FakeModel = await startFakeModel(provider.id, join(root, 'home'));
  const env = { ...process.env, ...model.env, PATH: `${pinnedCliBin()}:${process.env.PATH ?? ''}` };
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
    for (let i = 0; i < WARMUP + provider.runs; i++) {
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
      id: `B14 ${provider.short}`,
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
    if (provider.id === 'gemini') rmSync(root, { recursive: true, force: true });
  }
}

/**
 * A folder no world-writable folder is a parent of (Gemini CLI ignores its system settings file
 * below one): in the home folder's cache, as the tests do, not in the checkout (which may itself
 * be under /tmp).
 */
function privateDir(): string {
  const parent = join(homedir(), '.cache', 'letagents-bench');
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  return mkdtempSync(join(parent, 'la-bench-'));
}

/** Waits until the agent's last turn has ended and it is idle (B23 waits the same way). */
export async function turnEnded(app: AppHost['app'], agentId: string): Promise<void> {
  for (let i = 0; i < 6_000; i++) {
    const record = await app.agents.get(agentId);
    if (record.turnState === 'idle' && record.lastTurn && record.lastTurn.status !== 'running') return;
    await sleep(10);
  }
  throw new Error('the managed turn did not end within 60 s');
}
