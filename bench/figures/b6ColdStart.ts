// B6: core cold start on a database of 1 000 000 messages: from spawning `serve` to its
// ready line (database opened and checked, migrations, agent socket and HTTP listening).
// The same start on an empty database is the reference; createCore() alone, in this
// process, is broken out in the notes.
import { join } from 'node:path';
import { createCore } from '../../src/main/core';
import { generationNote, largeDataSet } from '../lib/datasets';
import type { Figure } from '../lib/figure';
import { startServe } from '../lib/processes';
import { summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const RUNS = 5;

export const b6: Figure = {
  id: 'B6',
  what: 'core cold start on a 1 000 000-message database',
  target: '≤ 300 ms',
  async run(ctx) {
    const data = largeDataSet(ctx);
    const empty = workspace();
    await createCore({ dataDir: empty.dataDir }).close();
    const startStop = async (dataDir: string) => {
      const serve = await startServe(dataDir);
      await serve.stop();
      return serve.readyMs;
    };
    await startStop(data.dataDir); // warm the page cache: "cold" is the process, not the disk
    await startStop(empty.dataDir);
    const ours: number[] = [];
    const reference: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await startStop(data.dataDir));
      reference.push(await startStop(empty.dataDir));
    }
    const inProcess: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      const core = createCore({ dataDir: data.dataDir });
      inProcess.push(performance.now() - t);
      await core.close();
    }
    const o = summarize(ours);
    const f = summarize(reference);
    return {
      ours: { ...o, label: 'spawn serve → ready line', unit: 'ms' },
      floor: { ...f, label: 'same, empty database', unit: 'ms' },
      ratio: o.median / f.median,
      met: o.median <= 300,
      notes: [
        generationNote(data),
        `createCore() alone on the large database, in-process: ${summarize(inProcess).median.toFixed(0)} ms (median of 3)`,
        `database file ${join(data.dataDir, 'letagents.db')} warm in the OS page cache`,
      ],
    };
  },
};
