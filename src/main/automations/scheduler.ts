// When scheduled automations run: ONE timer, for the earliest next due time of them all (no
// polling; between runs nothing wakes but a safety check an hour, which also notices a computer
// that slept through a due time). When it fires, each automation that is due learns the latest
// scheduled time that passed, whether that is on time (within a grace) or was missed, how many
// times it missed since its last one (the app was closed, the computer asleep), and whether it
// runs now: on time, or one catch-up run when its policy says so (default once), never more.
import { MAX_TIMER_MS, type Clock } from '../agents/clock';
import { compileSchedule, type CompiledSchedule, type ScheduleTrigger } from './schedule';

/** Later than this after its time, a run counts as missed (a catch-up), not on time. */
export const LATE_GRACE_MS = 2 * 60_000;
/** The longest the timer sleeps: a due time slept through is seen within this. */
export const MAX_SLEEP_MS = 60 * 60_000;
/** Missed runs are counted up to this many ("1,000 or more"). */
export const MISSED_COUNT_CAP = 1_000;

export interface ScheduledAutomation {
  readonly id: string;
  readonly trigger: ScheduleTrigger;
  /** Interval schedules count from here; calendar ones run first after it. */
  readonly anchorMs: number;
  /** The latest scheduled time already accounted for (run, skipped or missed). */
  readonly lastDueMs: number | null;
}

export interface Due {
  /** The latest scheduled time that passed: the run is for it. */
  readonly dueAt: number;
  /** A run now: on time, or the one catch-up; null when missed runs are skipped by its policy. */
  readonly run: 'schedule' | 'catch_up' | null;
  /** Scheduled times that passed without a run, and the latest of them. */
  readonly missed: { readonly count: number; readonly capped: boolean; readonly lastAt: number } | null;
}

export interface SchedulerOptions {
  readonly clock: Clock;
  /** An automation is due (called once per due, in the timer's turn). */
  onDue(id: string, due: Due): void;
  readonly maxSleepMs?: number;
}

interface Entry {
  readonly automation: ScheduledAutomation;
  readonly schedule: CompiledSchedule;
  lastDueMs: number | null;
  next: number | null;
}

export class AutomationScheduler {
  private readonly entries = new Map<string, Entry>();
  private cancelTimer: (() => void) | null = null;
  private armedFor: number | null = null;
  private closed = false;
  /** How many times the timer fired (the benchmark counts wakeups). */
  wakeups = 0;

  constructor(private readonly options: SchedulerOptions) {}

  /** Adds or replaces an automation's schedule (throws on a schedule that cannot be read). */
  set(automation: ScheduledAutomation): void {
    const schedule = compileSchedule(automation.trigger, automation.anchorMs);
    const after = automation.lastDueMs ?? automation.anchorMs;
    this.entries.set(automation.id, { automation, schedule, lastDueMs: automation.lastDueMs, next: schedule.next(after) });
    this.arm();
  }

  remove(id: string): void {
    if (this.entries.delete(id)) this.arm();
  }

  /** Its next scheduled time (epoch ms), or null. */
  nextRunAt(id: string): number | null {
    return this.entries.get(id)?.next ?? null;
  }

  /** Looks again now (the computer woke, the clock was changed). */
  recheck(): void {
    this.tick();
  }

  close(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.entries.clear();
  }

  private tick(): void {
    this.cancelTimer = null;
    this.armedFor = null;
    if (this.closed) return;
    const now = this.options.clock.now();
    for (const [id, entry] of this.entries) {
      if (entry.next === null || entry.next > now) continue;
      const due = this.dueOf(entry, now);
      entry.lastDueMs = due.dueAt;
      entry.next = entry.schedule.next(due.dueAt);
      try {
        this.options.onDue(id, due);
      } catch (error) {
        console.error(`automation ${id}: its due run failed:`, error);
      }
    }
    this.arm();
  }

  private dueOf(entry: Entry, now: number): Due {
    const after = entry.lastDueMs ?? entry.automation.anchorMs;
    const passed = entry.schedule.between(after, now, MISSED_COUNT_CAP);
    const latest = passed.latest!;
    const onTime = now - latest <= LATE_GRACE_MS;
    // A capped count stands for "this many or more".
    const missedCount = passed.capped ? passed.count : passed.count - (onTime ? 1 : 0);
    const missed =
      missedCount > 0
        ? { count: missedCount, capped: passed.capped, lastAt: onTime ? entry.schedule.between(after, latest - 1, MISSED_COUNT_CAP).latest! : latest }
        : null;
    const run = onTime ? 'schedule' : entry.automation.trigger.catchUp === 'once' ? 'catch_up' : null;
    return { dueAt: latest, run, missed };
  }

  /** One timer for the earliest due time (or the safety check, whichever comes first). */
  private arm(): void {
    if (this.closed) return;
    let earliest: number | null = null;
    for (const entry of this.entries.values()) if (entry.next !== null && (earliest === null || entry.next < earliest)) earliest = entry.next;
    if (earliest === null) {
      this.cancelTimer?.();
      this.cancelTimer = null;
      this.armedFor = null;
      return;
    }
    const now = this.options.clock.now();
    const at = Math.min(earliest, now + Math.min(this.options.maxSleepMs ?? MAX_SLEEP_MS, MAX_TIMER_MS));
    if (this.cancelTimer && this.armedFor === at) return;
    this.cancelTimer?.();
    this.armedFor = at;
    this.cancelTimer = this.options.clock.after(Math.max(0, at - now), () => {
      this.wakeups++;
      this.tick();
    });
  }
}
