// The automation scheduler with a clock the test moves: calendar schedules fire at their local
// times across daylight-saving changes in a named zone (croner reads the zone), an interval
// counts elapsed time, a restart that missed runs catches up once (never a burst) and counts
// what it missed, and between runs one timer waits (no polling).
import { describe, expect, it } from 'vitest';
import { AutomationScheduler, MAX_SLEEP_MS, type Due } from '../../../src/main/automations/scheduler';
import type { ScheduleTrigger } from '../../../src/main/automations/schedule';
import { ManualClock } from '../../support/manualClock';

const HOUR = 3_600_000;

function scheduler(clock: ManualClock) {
  const dues: Array<{ id: string; due: Due; at: string }> = [];
  const s = new AutomationScheduler({ clock, onDue: (id, due) => dues.push({ id, due, at: clock.iso() }) });
  return { s, dues, times: () => dues.map((d) => new Date(d.due.dueAt).toISOString()) };
}

const daily = (time: string, timeZone: string, catchUp: 'once' | 'skip' = 'once'): ScheduleTrigger => ({ type: 'schedule', schedule: { kind: 'daily', time }, timeZone, catchUp });

describe('schedules in a time zone with a daylight-saving change', () => {
  it('runs a daily 09:00 at 09:00 New York time on both sides of the March change', () => {
    const clock = new ManualClock('2026-03-06T12:00:00Z');
    const { s, times, dues } = scheduler(clock);
    s.set({ id: 'a', trigger: daily('09:00', 'America/New_York'), anchorMs: clock.now(), lastDueMs: null });
    clock.advanceTo('2026-03-10T00:00:00Z');
    // 09:00 EST is 14:00 UTC; after Sunday 8 March, 09:00 EDT is 13:00 UTC.
    expect(times()).toEqual(['2026-03-06T14:00:00.000Z', '2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z']);
    // Each fired at its own time, on time: none missed.
    expect(dues.map((d) => d.at)).toEqual(times());
    expect(dues.every((d) => d.due.run === 'schedule' && d.due.missed === null)).toBe(true);
  });

  it('runs a 02:30 once on the night the clocks go forward (at 03:00) and once on the night they go back', () => {
    const clock = new ManualClock('2026-03-07T12:00:00Z');
    const { s, times } = scheduler(clock);
    s.set({ id: 'night', trigger: daily('02:30', 'Europe/Berlin'), anchorMs: clock.now(), lastDueMs: null });
    clock.advanceTo('2026-03-31T12:00:00Z');
    const march = times().filter((t) => t >= '2026-03-28' && t < '2026-03-31');
    // Sunday 29 March 02:30 does not exist in Berlin: that day's run is at 03:00 CEST (01:00 UTC).
    expect(march).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);

    const autumn = new ManualClock('2026-10-23T12:00:00Z');
    const later = scheduler(autumn);
    later.s.set({ id: 'night', trigger: daily('02:30', 'Europe/Berlin'), anchorMs: autumn.now(), lastDueMs: null });
    autumn.advanceTo('2026-10-27T12:00:00Z');
    // Sunday 25 October 02:30 happens twice in Berlin: one run.
    expect(later.times()).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z', '2026-10-27T01:30:00.000Z']);
  });

  it('counts an interval in elapsed time, untouched by the change', () => {
    const clock = new ManualClock('2026-03-08T05:00:00Z');
    const { s, times } = scheduler(clock);
    s.set({ id: 'i', trigger: { type: 'schedule', schedule: { kind: 'interval', minutes: 90 }, timeZone: 'America/New_York', catchUp: 'once' }, anchorMs: clock.now(), lastDueMs: null });
    clock.advance(6 * HOUR);
    expect(times()).toEqual(['2026-03-08T06:30:00.000Z', '2026-03-08T08:00:00.000Z', '2026-03-08T09:30:00.000Z', '2026-03-08T11:00:00.000Z']);
  });
});

describe('missed runs', () => {
  const hourly: ScheduleTrigger = { type: 'schedule', schedule: { kind: 'interval', minutes: 60 }, timeZone: 'UTC', catchUp: 'once' };

  it('after three missed runs, a restart runs once (a catch-up) and counts three missed', () => {
    const clock = new ManualClock('2026-05-04T10:00:00Z');
    const anchor = clock.now();
    // The app ran the 11:00 run, then was closed until 14:30.
    clock.advanceTo('2026-05-04T14:30:00Z');
    const { s, dues } = scheduler(clock);
    s.set({ id: 'h', trigger: hourly, anchorMs: anchor, lastDueMs: Date.parse('2026-05-04T11:00:00Z') });
    clock.advance(0);
    expect(dues).toHaveLength(1);
    expect(dues[0].due).toEqual({ dueAt: Date.parse('2026-05-04T14:00:00Z'), run: 'catch_up', missed: { count: 3, capped: false, lastAt: Date.parse('2026-05-04T14:00:00Z') } });
    // Back on its schedule: 15:00 on time.
    clock.advanceTo('2026-05-04T15:00:00Z');
    expect(dues[1].due).toEqual({ dueAt: Date.parse('2026-05-04T15:00:00Z'), run: 'schedule', missed: null });
  });

  it('with the policy "skip", counts what it missed and runs nothing until the next time', () => {
    const clock = new ManualClock('2026-05-04T14:30:00Z');
    const { s, dues } = scheduler(clock);
    s.set({ id: 'h', trigger: { ...hourly, catchUp: 'skip' }, anchorMs: Date.parse('2026-05-04T10:00:00Z'), lastDueMs: Date.parse('2026-05-04T11:00:00Z') });
    clock.advance(0);
    expect(dues[0].due.run).toBeNull();
    expect(dues[0].due.missed?.count).toBe(3);
  });

  it('a week asleep is one catch-up, not a burst: the count stops at 1,000', () => {
    const clock = new ManualClock('2026-05-11T10:00:30Z');
    const { s, dues } = scheduler(clock);
    s.set({ id: 'm', trigger: { type: 'schedule', schedule: { kind: 'cron', expression: '* * * * *' }, timeZone: 'UTC', catchUp: 'once' }, anchorMs: Date.parse('2026-05-04T10:00:00Z'), lastDueMs: Date.parse('2026-05-04T10:00:00Z') });
    clock.advance(0);
    expect(dues).toHaveLength(1);
    // 10:00 on the dot is within the grace: it runs on time; the rest were missed.
    expect(dues[0].due).toMatchObject({ run: 'schedule', dueAt: Date.parse('2026-05-11T10:00:00Z'), missed: { count: 1_000, capped: true, lastAt: Date.parse('2026-05-11T09:59:00Z') } });
  });
});

describe('between runs', () => {
  it('waits on one timer, for the earliest of 200 automations, and wakes only at due times or the hourly safety check', () => {
    const clock = new ManualClock('2026-05-04T00:00:00Z');
    const { s, dues } = scheduler(clock);
    for (let i = 0; i < 200; i++) {
      const time = `${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
      s.set({ id: `a${i}`, trigger: daily(time, 'Europe/Berlin'), anchorMs: clock.now(), lastDueMs: null });
    }
    expect(clock.pending).toBe(1);
    clock.advance(24 * HOUR);
    expect(dues).toHaveLength(200);
    // 200 runs at distinct minutes (a few share one) plus at most one safety check per idle hour.
    expect(s.wakeups).toBeLessThanOrEqual(200 + 24);
    expect(clock.pending).toBe(1);
    expect(MAX_SLEEP_MS).toBe(HOUR);
  });

  it('refuses a cron expression it cannot read, and a time zone this computer does not know', () => {
    const clock = new ManualClock('2026-05-04T00:00:00Z');
    const { s } = scheduler(clock);
    expect(() => s.set({ id: 'x', trigger: { type: 'schedule', schedule: { kind: 'cron', expression: '61 * * * *' }, timeZone: 'UTC', catchUp: 'once' }, anchorMs: 0, lastDueMs: null })).toThrow(/cannot be read: Invalid value for minute: 61/);
    expect(() => s.set({ id: 'y', trigger: daily('09:00', 'Mars/Olympus_Mons'), anchorMs: 0, lastDueMs: null })).toThrow('"Mars/Olympus_Mons" is not a time zone this computer knows');
    expect(clock.pending).toBe(0);
  });
});
