// A clock a test moves by hand (src/main/agents/clock.ts): timers fire, in time order and each
// at its own time, only while the test advances it; a restart keeps the time where it is.
import type { Clock } from '../../src/main/agents/clock';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

export class ManualClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private nextId = 1;

  constructor(start: string | number) {
    this.time = typeof start === 'string' ? Date.parse(start) : start;
  }

  now(): number {
    return this.time;
  }

  after(delayMs: number, fn: () => void): () => void {
    const timer = { id: this.nextId++, at: this.time + Math.max(0, delayMs), fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t.id !== timer.id);
    };
  }

  /** Moves time on by `ms`, firing every timer due on the way at its own time (timers they set too). */
  advance(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  advanceTo(target: number | string): void {
    const end = typeof target === 'string' ? Date.parse(target) : target;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t.id !== due.id);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = Math.max(this.time, end);
  }

  /** Timers waiting now (what a sleeping app would have armed). */
  get pending(): number {
    return this.timers.length;
  }

  iso(): string {
    return new Date(this.time).toISOString();
  }
}
