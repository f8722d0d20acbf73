// The automation dialog's "When it starts" fields: each trigger fills them and comes back the
// same from them; fields that make no trigger say what is wrong, in the dialog's words.
import { describe, expect, it } from 'vitest';
import type { AutomationTrigger } from '../../src/shared/model/automations';
import { formOf, triggerOf } from '../../src/renderer/src/views/automations/triggerForm';

describe('the trigger fields of the automation dialog', () => {
  it('fill from a trigger and make the same trigger again', () => {
    const triggers: AutomationTrigger[] = [
      { type: 'schedule', schedule: { kind: 'interval', minutes: 15 }, timeZone: 'Europe/Berlin', catchUp: 'once' },
      { type: 'schedule', schedule: { kind: 'interval', minutes: 120 }, timeZone: 'UTC', catchUp: 'skip' },
      { type: 'schedule', schedule: { kind: 'weekdays', time: '09:30' }, timeZone: 'America/New_York', catchUp: 'once' },
      { type: 'schedule', schedule: { kind: 'cron', expression: '0 9 * * 1-5' }, timeZone: 'Asia/Tokyo', catchUp: 'once' },
      { type: 'task_status', status: 'in_review' },
      { type: 'task_blocked' },
      { type: 'pr_check_failed' },
    ];
    for (const trigger of triggers) expect(triggerOf(formOf(trigger))).toEqual(trigger);
    // Two hours show as 2 hours, not 120 minutes.
    expect(formOf(triggers[1])).toMatchObject({ kind: 'every', every: '2', unit: 'hours' });
  });

  it('say what is wrong with fields that make no trigger', () => {
    const form = formOf(undefined);
    expect(triggerOf({ ...form, kind: 'every', every: '0' })).toBe('Every must be a whole number of minutes or hours, at least 1.');
    expect(triggerOf({ ...form, kind: 'daily', time: '9:00' })).toBe('A time is HH:MM on the 24-hour clock, e.g. 09:00.');
    expect(triggerOf({ ...form, kind: 'cron', cron: ' ' })).toBe('Write a cron expression, e.g. "0 9 * * 1-5".');
  });
});
