// One format for time, one label per status (room events too) and one display form of a
// room name: the functions every view uses.
import { describe, expect, it } from 'vitest';
import { withStatusLabels } from '../../src/shared/taskTransitions';
import { formatCountdown, formatTime, formatUntil } from '../../src/renderer/src/lib/time';
import { timeLeft, turnsSummary } from '../../src/renderer/src/views/delivery/turnWords';
import type { TurnStep } from '../../src/shared/model/delivery';
import { roomTitle } from '../../src/renderer/src/lib/rooms';

describe('formatTime', () => {
  const now = new Date(2026, 2, 4, 15, 0, 0).getTime();
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('is relative within a day', () => {
    expect(formatTime(ago(10_000), now)).toBe('just now');
    expect(formatTime(ago(-5_000), now)).toBe('just now'); // another clock a little ahead
    expect(formatTime(ago(60_000), now)).toBe('1 min ago');
    expect(formatTime(ago(59 * 60_000), now)).toBe('59 min ago');
    expect(formatTime(ago(3 * 3_600_000 + 59 * 60_000), now)).toBe('3 h ago');
    expect(formatTime(ago(23 * 3_600_000), now)).toBe('23 h ago');
  });

  it('says a moment ahead as one, so a deadline 10 minutes away never reads "just now" (issue 35)', () => {
    expect(formatTime(ago(-10 * 60_000), now)).toBe('in 10 min');
    expect(formatUntil(ago(-10 * 60_000), now)).toBe('in 10 min');
    expect(formatUntil(ago(-20_000), now)).toBe('in under a minute');
    expect(formatUntil(ago(-2 * 3_600_000), now)).toBe('in 2 h');
    expect(formatUntil(ago(5_000), now)).toBe('now');
  });

  it('is date and time after a day, with the year only when it differs', () => {
    const older = formatTime(new Date(2026, 2, 2, 14, 5).toISOString(), now);
    expect(older).toMatch(/14:05|2:05/);
    expect(older).not.toMatch(/2026/);
    expect(formatTime(new Date(2025, 11, 30, 9, 0).toISOString(), now)).toMatch(/2025/);
  });
});

describe('withStatusLabels', () => {
  it("shows the labels people read in a room event, never the ids agents use", () => {
    expect(withStatusLabels('task_7 moved from in_progress to in_review by Juniper.')).toBe('task_7 moved from In progress to In review by Juniper.');
    expect(withStatusLabels('task_2 moved from proposed to accepted by Ada.')).toBe('task_2 moved from Proposed to Accepted by Ada.');
    expect(withStatusLabels('Juniper claimed task_7.')).toBe('Juniper claimed task_7.');
    expect(withStatusLabels('We moved from plan to action.')).toBe('We moved from plan to action.');
  });
});

describe('roomTitle', () => {
  it('shows owner/repo for a repository room the person has not renamed, and the name otherwise', () => {
    expect(roomTitle({ kind: 'repo', id: 'github.com/acme/app', name: 'github.com/acme/app', repo: 'acme/app' })).toBe('acme/app');
    expect(roomTitle({ kind: 'repo', id: 'github.com/acme/app', name: 'Checkout', repo: 'acme/app' })).toBe('Checkout');
    expect(roomTitle({ kind: 'invite', id: 'ABCX-7291', name: 'Room ABCX-7291', repo: null })).toBe('Room ABCX-7291');
  });
});

describe('an @all answered in turn, in words (issue 34)', () => {
  const now = Date.parse('2026-12-06T12:00:00Z');
  const turn = (name: string, state: TurnStep) => ({ name, state, startedAt: state === 'waiting' ? null : '2026-12-06T11:59:00Z', endedAt: null });

  it('says who answered, whose turn it is with the time left, and who comes next', () => {
    expect(turnsSummary({ order: [turn('Aspen', 'turn'), turn('Birch', 'waiting'), turn('Cedar', 'waiting')], turnEndsAt: '2026-12-06T12:01:12Z' }, now)).toBe("Aspen's turn, 1:12 left · next: Birch, Cedar");
    expect(turnsSummary({ order: [turn('Aspen', 'answered'), turn('Birch', 'turn'), turn('Cedar', 'waiting')], turnEndsAt: '2026-12-06T12:00:00.500Z' }, now)).toBe("Aspen answered · Birch's turn, 0:01 left · next: Cedar");
    expect(turnsSummary({ order: [turn('Aspen', 'passed'), turn('Birch', 'away'), turn('Cedar', 'timed_out')], turnEndsAt: null }, now)).toBe('Aspen passed · Birch went away · Cedar ran out of time');
  });

  it('counts down as a clock does, and never below zero', () => {
    expect(formatCountdown(90)).toBe('1:30');
    expect(formatCountdown(5)).toBe('0:05');
    expect(timeLeft('2026-12-06T11:59:00Z', now)).toBe('0:00');
  });
});
