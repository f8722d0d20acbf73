import { describe, expect, it } from 'vitest';
import { WAKES_PER_SESSION, WakeLog, type WakeRecord } from '../../../src/main/mcp/wakeLog';

const wake = (sessionId: string, n: number): WakeRecord => ({
  place: 'local', roomId: 'lab', sessionId, at: new Date(Date.UTC(2026, 4, 1, 9, 0, n)).toISOString(), messageNumber: n,
  reason: 'explicit_mention', addressed: true, concern: null, activating: 1,
});

describe('the wake log', () => {
  it('keeps each session\'s newest wakes first, at most 20, and tells listeners of each', () => {
    const log = new WakeLog();
    const heard: number[] = [];
    const stop = log.onWake((w) => heard.push(w.messageNumber));
    for (let n = 1; n <= 25; n++) log.record(wake('juniper', n));
    log.record(wake('cedar', 99));
    stop();
    log.record(wake('cedar', 100));
    expect(log.of('local', 'juniper').map((w) => w.messageNumber)).toEqual(Array.from({ length: WAKES_PER_SESSION }, (_, i) => 25 - i));
    expect(log.of('local', 'cedar').map((w) => w.messageNumber)).toEqual([100, 99]);
    expect(log.of('local', 'nobody')).toEqual([]);
    expect(heard).toEqual([...Array.from({ length: 25 }, (_, i) => i + 1), 99]);
  });

  it('forgets the session woken longest ago once it holds a thousand', () => {
    const log = new WakeLog();
    for (let i = 0; i < 1_000; i++) log.record(wake(`s${i}`, 1));
    log.record(wake('s0', 2)); // s0 is woken again: s1 is now the longest ago
    log.record(wake('s1000', 1));
    expect(log.of('local', 's1')).toEqual([]);
    expect(log.of('local', 's0').map((w) => w.messageNumber)).toEqual([2, 1]);
    expect(log.of('local', 's1000')).toHaveLength(1);
  });
});
