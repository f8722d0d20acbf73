// The turn scheduler's rules, with turns that the test ends itself: one turn per agent at a
// time, what arrives meanwhile is exactly one next turn, a global limit on turns at once,
// the time limit, and Stop.
import { describe, expect, it } from 'vitest';
import { TurnScheduler, type TurnAbortReason } from '../../../src/main/agents/turnScheduler';
import type { Trigger } from '../../../src/main/agents/types';
import { waitUntil } from '../../support/waitUntil';

interface Started {
  agentId: string;
  triggers: Trigger[];
  signal: AbortSignal;
  finish(): void;
}

function scheduler(options: { maxConcurrent?: number; turnTimeLimitMs?: number } = {}) {
  const started: Started[] = [];
  const s = new TurnScheduler({
    ...options,
    runTurn: (agentId, triggers, signal) =>
      new Promise<void>((resolve) => {
        const entry: Started = { agentId, triggers, signal, finish: resolve };
        // A turn whose provider was killed ends on its own.
        signal.addEventListener('abort', () => resolve());
        started.push(entry);
      }),
  });
  return { s, started };
}

const run = (by: string): Trigger => ({ kind: 'run_now', by });
const tick = () => new Promise((resolve) => setImmediate(resolve));
const settle = async () => {
  for (let i = 0; i < 5; i++) await tick();
};

describe('the turn scheduler', () => {
  it('what arrives during a turn becomes exactly one next turn with all of it', async () => {
    const { s, started } = scheduler();
    s.request('a', run('1'));
    await settle();
    expect(started).toHaveLength(1);
    for (const by of ['2', '3', '4']) s.request('a', run(by));
    expect(s.state('a')).toBe('running');
    await settle();
    expect(started).toHaveLength(1);
    started[0].finish();
    await settle();
    expect(started).toHaveLength(2);
    expect(started[1].triggers.map((t) => (t as { by: string }).by)).toEqual(['2', '3', '4']);
    started[1].finish();
    await settle();
    expect(started).toHaveLength(2);
    expect(s.state('a')).toBe('idle');
  });

  it('triggers of one moment make one turn', async () => {
    const { s, started } = scheduler();
    s.request('a', run('1'));
    s.request('a', run('2'));
    await settle();
    expect(started.map((t) => t.triggers.length)).toEqual([2]);
  });

  it('runs at most two turns at once by default; the others wait in order', async () => {
    const { s, started } = scheduler();
    for (const id of ['a', 'b', 'c', 'd']) s.request(id, run(id));
    await settle();
    expect(started.map((t) => t.agentId)).toEqual(['a', 'b']);
    expect(s.state('c')).toBe('queued');
    started[1].finish();
    await settle();
    expect(started.map((t) => t.agentId)).toEqual(['a', 'b', 'c']);
    started[0].finish();
    await settle();
    expect(started.map((t) => t.agentId)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('aborts a turn that runs past the time limit', async () => {
    const { s, started } = scheduler({ turnTimeLimitMs: 30 });
    s.request('a', run('1'));
    await settle();
    await waitUntil(() => started[0].signal.aborted, 5_000, 'the turn aborted');
    expect(started[0].signal.reason as TurnAbortReason).toBe('timed_out');
    await settle();
    expect(s.state('a')).toBe('idle');
  });

  it('Stop aborts the running turn and drops the queued one; forget drops only the queued one', async () => {
    const { s, started } = scheduler();
    s.request('a', run('1'));
    await settle();
    s.request('a', run('2'));
    expect(await s.stop('a')).toBe(true);
    expect(started[0].signal.reason as TurnAbortReason).toBe('stopped');
    await settle();
    expect(started).toHaveLength(1);
    expect(await s.stop('a')).toBe(false);

    s.request('b', run('1'));
    await settle();
    s.request('b', run('2'));
    s.forget('b');
    started[1].finish();
    await settle();
    expect(started).toHaveLength(2);
  });

  it('close aborts running turns and starts nothing more', async () => {
    const { s, started } = scheduler({ maxConcurrent: 1 });
    s.request('a', run('1'));
    s.request('b', run('1'));
    await settle();
    await s.close();
    expect(started[0].signal.reason as TurnAbortReason).toBe('closing');
    s.request('c', run('1'));
    await settle();
    expect(started.map((t) => t.agentId)).toEqual(['a']);
  });
});
