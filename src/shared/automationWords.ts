// Automations in plain words, the same in the Automations view, on the command line and in what
// the app records: what starts one ("Every weekday at 09:00 (Europe/Berlin)") and how its runs ended.
import type { AutomationTrigger, RunStatus, Schedule } from './model/automations';
import { STATUS_LABELS } from './taskTransitions';

function everyText(minutes: number): string {
  if (minutes % (24 * 60) === 0) return minutes === 24 * 60 ? 'Every day' : `Every ${minutes / (24 * 60)} days`;
  if (minutes % 60 === 0) return minutes === 60 ? 'Every hour' : `Every ${minutes / 60} hours`;
  return minutes === 1 ? 'Every minute' : `Every ${minutes} minutes`;
}

export function scheduleText(schedule: Schedule, timeZone: string): string {
  switch (schedule.kind) {
    case 'interval':
      return everyText(schedule.minutes);
    case 'daily':
      return `Every day at ${schedule.time} (${timeZone})`;
    case 'weekdays':
      return `Every weekday at ${schedule.time} (${timeZone})`;
    case 'cron':
      return `On the cron schedule "${schedule.expression}" (${timeZone})`;
  }
}

export function triggerText(trigger: AutomationTrigger): string {
  switch (trigger.type) {
    case 'schedule':
      return scheduleText(trigger.schedule, trigger.timeZone);
    case 'task_status':
      return `When a task enters ${STATUS_LABELS[trigger.status]}`;
    case 'task_blocked':
      return 'When a task is blocked';
    case 'decision_answered':
      return "When an agent's question or decision in Needs you is answered";
    case 'pr_check_failed':
      return "When a check fails on a task's pull request";
    case 'pr_review_requested':
      return "When a review is requested on a task's pull request";
  }
}

/** Triggers that read the pull requests linked to tasks, from GitHub (signed in only). */
export const GITHUB_TRIGGERS: ReadonlySet<AutomationTrigger['type']> = new Set(['pr_check_failed', 'pr_review_requested']);

export const RUN_STATUS_WORDS: Readonly<Record<RunStatus, string>> = {
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  stopped: 'Stopped at a limit',
  skipped: 'Could not start',
  missed: 'Missed',
};

/** "Missed 3 runs (last at 09:00)": the time already in the reader's words. */
export function missedText(count: number, lastAt: string, capped = false): string {
  const runs = capped ? `${count.toLocaleString('en-US')} or more runs` : count === 1 ? '1 run' : `${count.toLocaleString('en-US')} runs`;
  return `Missed ${runs} (last at ${lastAt})`;
}
