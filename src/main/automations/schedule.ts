// When a scheduled automation is due: every N minutes counted from its anchor (elapsed time,
// no time zone), or a calendar schedule (daily, weekdays, a cron expression) read in the
// person's time zone by croner, which keeps daylight-saving changes right (a 02:30 run on the
// night the clocks go forward runs at 03:00; one on the night they go back runs once).
import { Cron } from 'croner';
import type { AutomationTrigger, Schedule } from '../../shared/model/automations';
import { appErrors } from '../domain/errors';

export type ScheduleTrigger = Extract<AutomationTrigger, { type: 'schedule' }>;

export interface CompiledSchedule {
  /** The first due time strictly after `afterMs` (epoch ms); null when it never runs again. */
  next(afterMs: number): number | null;
  /** Due times in (afterMs, untilMs]: how many (at most `cap`, then `capped`) and the latest. */
  between(afterMs: number, untilMs: number, cap: number): { count: number; latest: number | null; capped: boolean };
}

const MINUTE_MS = 60_000;

/** The person's time zone (the system's). */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** An IANA time zone name as the system knows it; refused (bad input) otherwise. */
export function checkTimeZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw appErrors.invalidInput(`"${zone}" is not a time zone this computer knows; use a name like Europe/Berlin or America/New_York.`);
  }
}

/** The cron pattern of a calendar schedule (minute hour day month weekday). */
export function cronPatternOf(schedule: Exclude<Schedule, { kind: 'interval' }>): string {
  if (schedule.kind === 'cron') return schedule.expression.trim().replace(/\s+/g, ' ');
  const [hours, minutes] = schedule.time.split(':').map(Number);
  return `${minutes} ${hours} * * ${schedule.kind === 'weekdays' ? '1-5' : '*'}`;
}

/** Compiles a schedule; a cron expression croner cannot read, or one that never runs, is refused. */
export function compileSchedule(trigger: ScheduleTrigger, anchorMs: number): CompiledSchedule {
  const { schedule } = trigger;
  if (schedule.kind === 'interval') return intervalSchedule(schedule.minutes * MINUTE_MS, anchorMs);
  const timeZone = checkTimeZone(trigger.timeZone);
  const fields = cronPatternOf(schedule).split(' ').length;
  if (fields !== 5) throw appErrors.invalidInput(`The cron expression "${cronPatternOf(schedule)}" has ${fields} field${fields === 1 ? '' : 's'}; it needs five: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5".`);
  let cron: Cron;
  try {
    cron = new Cron(cronPatternOf(schedule), { timezone: timeZone, mode: '5-part', paused: true });
  } catch (error) {
    throw appErrors.invalidInput(`The cron expression "${schedule.kind === 'cron' ? schedule.expression : ''}" cannot be read: ${cronProblem(error)}. It has five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5".`);
  }
  const next = (afterMs: number) => cron.nextRun(new Date(afterMs))?.getTime() ?? null;
  // croner reads whole seconds: a reference one second on includes a run at `untilMs` itself.
  const latestUpTo = (untilMs: number) => cron.previousRuns(1, new Date(untilMs + 1_000))[0]?.getTime() ?? null;
  if (next(anchorMs) === null) throw appErrors.invalidInput(`The cron expression "${cronPatternOf(schedule)}" never runs.`);
  return {
    next,
    between(afterMs, untilMs, cap) {
      let count = 0;
      let latest: number | null = null;
      for (let at = next(afterMs); at !== null && at <= untilMs; at = next(at)) {
        latest = at;
        if (++count >= cap) return { count, latest: latestUpTo(untilMs) ?? at, capped: true };
      }
      return { count, latest, capped: false };
    },
  };
}

/** Every `periodMs`, the first one period after the anchor. */
function intervalSchedule(periodMs: number, anchorMs: number): CompiledSchedule {
  const next = (afterMs: number) => (afterMs < anchorMs ? anchorMs + periodMs : anchorMs + (Math.floor((afterMs - anchorMs) / periodMs) + 1) * periodMs);
  return {
    next,
    between(afterMs, untilMs, cap) {
      const first = next(afterMs);
      if (first > untilMs) return { count: 0, latest: null, capped: false };
      const count = Math.floor((untilMs - first) / periodMs) + 1;
      return { count: Math.min(count, cap), latest: first + (count - 1) * periodMs, capped: count > cap };
    },
  };
}

function cronProblem(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/^CronPattern:\s*/, '').replace(/\.$/, '');
}
