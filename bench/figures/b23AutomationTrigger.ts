// B23 (issue 36): a room-event automation's trigger (a task enters a status) → its agent's turn
// starting, with the real Claude Code against a fake model answering at once (as B14); the
// reference, measured alternately in the same run: a mention → the turn starting (B14's "app's part").
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { say, startFakeModel } from '../../test/support/fakeModels';
import type { Figure, FigureOutcome } from '../lib/figure';
import { personApi } from '../lib/personApi';
import { tempDir } from '../lib/processes';
import { summarize } from '../lib/stats';
import { turnEnded } from './b14ManagedTurn';
import { pinnedCliBin } from '../../test/support/pinnedClis';

const ROOM = 'bench-automations';
const EVENT_RUNS = 10;
const WARMUP = 2;

export const b23: Figure = {
  id: 'B23',
  what: 'automations: room event (a task enters a status) → the agent\'s turn starts',
  target: 'p50 and p99 reported, next to a mention → turn start',
  run: (ctx) => event(ctx.log),
};

async function event(log: (line: string) => void): Promise<FigureOutcome> {
  const root = tempDir();
  const folder = join(root, 'work');
  mkdirSync(folder);
  const model = await startFakeModel('claude_code', join(root, 'home'));
  const env = { ...process.env, ...model.env, PATH: `${pinnedCliBin()}:${process.env.PATH ?? ''}` };
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
