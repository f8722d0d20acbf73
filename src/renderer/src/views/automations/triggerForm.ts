// The "When it starts" fields of the automation dialog, and the trigger they make (or what is
// wrong with them, in the words the dialog shows).
import type { AutomationTrigger } from '../../../../shared/model/automations';
import type { TaskStatus } from '../../../../shared/taskTransitions';

export interface TriggerForm {
  kind: 'every' | 'daily' | 'weekdays' | 'cron' | Exclude<AutomationTrigger['type'], 'schedule'>;
  every: string;
  unit: 'minutes' | 'hours';
  time: string;
  cron: string;
  status: TaskStatus;
  timeZone: string;
  catchUp: boolean;
}

export const TRIGGER_CHOICES: ReadonlyArray<{ kind: TriggerForm['kind']; label: string }> = [
  { kind: 'every', label: 'Every few minutes or hours' },
  { kind: 'daily', label: 'Every day at a time' },
  { kind: 'weekdays', label: 'Every weekday at a time' },
  { kind: 'cron', label: 'On a cron schedule' },
  { kind: 'task_status', label: 'When a task enters a status' },
  { kind: 'task_blocked', label: 'When a task is blocked' },
  { kind: 'decision_answered', label: 'When an agent’s question in Needs you is answered' },
  { kind: 'pr_check_failed', label: 'When a check fails on a task’s pull request' },
  { kind: 'pr_review_requested', label: 'When a review is requested on a task’s pull request' },
];

const systemZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The fields for a trigger (an automation's, or the defaults). */
export function formOf(trigger: AutomationTrigger | undefined): TriggerForm {
  const form: TriggerForm = { kind: 'daily', every: '15', unit: 'minutes', time: '09:00', cron: '0 9 * * 1-5', status: 'in_review', timeZone: systemZone(), catchUp: true };
  if (!trigger) return form;
  if (trigger.type !== 'schedule') return { ...form, kind: trigger.type, ...(trigger.type === 'task_status' ? { status: trigger.status } : {}) };
  const base = { ...form, timeZone: trigger.timeZone, catchUp: trigger.catchUp === 'once' };
  const s = trigger.schedule;
  if (s.kind === 'interval') return { ...base, kind: 'every', ...(s.minutes % 60 === 0 ? { every: String(s.minutes / 60), unit: 'hours' } : { every: String(s.minutes), unit: 'minutes' }) };
  if (s.kind === 'cron') return { ...base, kind: 'cron', cron: s.expression };
  return { ...base, kind: s.kind, time: s.time };
}

/** The trigger the fields make, or what is wrong with them. */
export function triggerOf(form: TriggerForm): AutomationTrigger | string {
  const schedule = (s: Extract<AutomationTrigger, { type: 'schedule' }>['schedule']): AutomationTrigger => ({ type: 'schedule', schedule: s, timeZone: form.timeZone.trim(), catchUp: form.catchUp ? 'once' : 'skip' });
  switch (form.kind) {
    case 'every': {
      if (!/^\d+$/.test(form.every.trim()) || Number(form.every) < 1) return 'Every must be a whole number of minutes or hours, at least 1.';
      return schedule({ kind: 'interval', minutes: Number(form.every) * (form.unit === 'hours' ? 60 : 1) });
    }
    case 'daily':
    case 'weekdays':
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(form.time.trim())) return 'A time is HH:MM on the 24-hour clock, e.g. 09:00.';
      return schedule({ kind: form.kind, time: form.time.trim() });
    case 'cron':
      return form.cron.trim() === '' ? 'Write a cron expression, e.g. "0 9 * * 1-5".' : schedule({ kind: 'cron', expression: form.cron.trim() });
    case 'task_status':
      return { type: 'task_status', status: form.status };
    default:
      return { type: form.kind } as AutomationTrigger;
  }
}
