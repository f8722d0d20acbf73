// B19 (issue 36): what automations cost. Idle: the app's CPU per minute and the automation
// scheduler's wakeups per minute with 200 scheduled automations none of which is due (daily runs
// hours away), against the same app with none (its floor, measured right before). Event: a
// room-event automation's trigger (a task enters a status) → its agent's turn starting, with the
// real Claude Code against a fake model answering at once (as B14); the reference, measured
// alternately in the same run: a mention → the turn starting (B14's "app's part").
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { say, startFakeModel } from '../../test/support/fakeModels';
import type { Figure, FigureOutcome } from '../lib/figure';
import { personApi } from '../lib/personApi';
import { repoRoot, tempDir } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { turnEnded } from './b14ManagedTurn';

const ROOM = 'bench-automations';
const AUTOMATIONS = 200;
/** Each idle window is cut in slices: their CPU figures make the median and p99. */
const SLICE_MS = 5_000;
const IDLE_MS = Number(process.env.BENCH_B19_IDLE_SECONDS ?? 30) * 1_000;
const EVENT_RUNS = 10;
const WARMUP = 2;

export const b19: Figure = {
  id: 'B19',
  what: 'automations: idle cost of 200 scheduled ones; room event → turn start',
  target: 'idle ≈ 0 CPU and wakeups between runs; event: p50 and p99 reported',
  async run(ctx) {
    return [await idle(ctx.log), await event(ctx.log)];
  },
};

/** CPU milliseconds per minute in slices over `ms`. */
async function cpuPerMinute(ms: number): Promise<number[]> {
  const slices: number[] = [];
  for (let left = ms; left > 0; left -= SLICE_MS) {
    const before = process.cpuUsage();
    await sleep(SLICE_MS);
    const used = process.cpuUsage(before);
    slices.push(((used.user + used.system) / 1_000) * (60_000 / SLICE_MS));
  }
  return slices;
}

async function idle(log: (line: string) => void): Promise<FigureOutcome> {
  const root = tempDir();
  let host: AppHost | null = null;
  try {
    host = await startAppHost({ dataDir: join(root, 'data'), env: { ...process.env, PATH: '' }, home: join(root, 'home'), secrets: createMemorySecretStore() });
    const call = personApi(host.app, process.env);
    await host.app.core.store.write((tx) => ensureRoom(tx, { roomId: ROOM, kind: 'named' }));
    await sleep(1_000);
    const floor = await cpuPerMinute(IDLE_MS);
    // Daily runs two to six hours from now (UTC), spread over the minutes: none is due.
    const now = new Date();
    for (let i = 0; i < AUTOMATIONS; i++) {
      const at = new Date(now.getTime() + (2 * 60 + i) * 60_000);
      const time = `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
      await call('automations.add', {
        name: `Daily ${i}`, roomId: ROOM, target: { kind: 'mention', handle: 'agents' }, instructions: 'Post the status.',
        trigger: { type: 'schedule', schedule: { kind: 'daily', time }, timeZone: 'UTC', catchUp: 'once' },
      });
    }
    await sleep(1_000);
    const wakeupsBefore = host.app.automations.wakeups;
    const ours = await cpuPerMinute(IDLE_MS);
    const wakeups = ((host.app.automations.wakeups - wakeupsBefore) * 60_000) / IDLE_MS;
    const o = summarize(ours);
    const f = summarize(floor);
    log(`idle with ${AUTOMATIONS} automations: ${o.median.toFixed(1)} ms CPU per minute (none: ${f.median.toFixed(1)}), ${wakeups.toFixed(2)} scheduler wakeups per minute`);
    return {
      id: 'B19 idle',
      ours: { ...o, label: `CPU with ${AUTOMATIONS} idle automations`, unit: 'ms/min' },
      floor: { ...f, label: 'CPU of the same app with none', unit: 'ms/min' },
      ratio: f.median > 0 ? o.median / f.median : null,
      met: null,
      notes: [
        `scheduler wakeups: ${wakeups.toFixed(2)} per minute over ${IDLE_MS / 1_000} s (one timer for the earliest due run; a safety check at most hourly)`,
        `CPU per ${SLICE_MS / 1_000}-s slice, as ms per minute; the whole process (the app's other timers included)`,
      ],
    };
  } finally {
    await host?.close();
  }
}

async function event(log: (line: string) => void): Promise<FigureOutcome> {
  const root = tempDir();
  const folder = join(root, 'work');
  mkdirSync(folder);
  const model = await startFakeModel('claude_code', join(root, 'home'));
  const env = { ...process.env, ...model.env, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
  let host: AppHost | null = null;
  try {
    host = await startAppHost({ dataDir: join(root, 'data'), env, home: join(root, 'home'), secrets: createMemorySecretStore() });
    const app = host.app;
    const call = personApi(app, env);
    await app.core.store.write((tx) => ensureRoom(tx, { roomId: ROOM, kind: 'named' }));
    const agent = await call('agents.add', { provider: 'claude_code', folder, roomId: ROOM, name: 'Bench', permissions: 'read_only', turnsPerHour: null });
    const agentId = agent.agentId as string;
    await call('automations.add', {
      name: 'On accept', roomId: ROOM, target: { kind: 'agent', agentId }, instructions: 'Look at the accepted task.', trigger: { type: 'task_status', status: 'accepted' },
    });
    let opened: ((at: number) => void) | null = null;
    app.core.bus.on('agent.activity', (e) => e.agentId === agentId && opened?.(performance.now()));
    const sample = async (trigger: (i: number) => Promise<unknown>, i: number): Promise<number> => {
      model.script.push('Bench', say('Done.'));
      const started = new Promise<number>((resolve) => (opened = resolve));
      const at = performance.now();
      await trigger(i);
      const turnAt = await started;
      opened = null;
      await turnEnded(app, agentId);
      return turnAt - at;
    };
    const accept = async (i: number) => {
      const task = await call('tasks.create', { roomId: ROOM, title: `Task ${i}`, propose: true });
      return call('tasks.accept', { roomId: ROOM, number: task.number as number });
    };
    const mention = (i: number) => call('messages.send', { roomId: ROOM, text: `@Bench ping ${i}` });
    const ours: number[] = [];
    const reference: number[] = [];
    for (let i = 0; i < WARMUP + EVENT_RUNS; i++) {
      const a = await sample(accept, i);
      const b = await sample(mention, i);
      if (i < WARMUP) continue;
      ours.push(a);
      reference.push(b);
    }
    const o = summarize(ours);
    const f = summarize(reference);
    log(`task accepted → turn start median ${o.median.toFixed(1)} ms; mention → turn start ${f.median.toFixed(1)} ms`);
    return {
      id: 'B19 event',
      ours: { ...o, label: 'task enters a status → the automation\'s turn starts', unit: 'ms' },
      floor: { ...f, label: 'mention → turn starts (B14\'s app part)', unit: 'ms' },
      ratio: o.median / f.median,
      met: null,
      notes: ['the trigger is the person\'s tasks.accept (its write included); each sample waits for the turn to end'],
    };
  } finally {
    await host?.close();
    await model.close();
  }
}
