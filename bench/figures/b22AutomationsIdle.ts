// B22 (issue 36): the idle cost of scheduled automations: the app's CPU per minute and the
// automation scheduler's wakeups per minute with 200 scheduled automations none of which is due
// (daily runs hours away), against the same app with none (its floor, measured right before).
import { join } from 'node:path';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import type { Figure, FigureOutcome } from '../lib/figure';
import { personApi } from '../lib/personApi';
import { tempDir } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';

const ROOM = 'bench-automations';
const AUTOMATIONS = 200;
/** Each idle window is cut in slices: their CPU figures make the median and p99. */
const SLICE_MS = 5_000;
const IDLE_MS = Number(process.env.BENCH_B22_IDLE_SECONDS ?? 30) * 1_000;

export const b22: Figure = {
  id: 'B22',
  what: 'automations: idle cost of 200 scheduled ones',
  target: 'idle ≈ 0 CPU and wakeups between runs',
  run: (ctx) => idle(ctx.log),
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
