// automations.*: agents that start on a schedule or an event — list, add, edit, pause and
// resume (separate methods: a paired phone may call just these), run now, remove, and runs.
import type { ApiContext } from '../context';
import { toAutomation, toAutomationRun } from '../models/automations';
import type { Methods } from './types';

type AutomationMethods = Methods<
  'automations.list' | 'automations.add' | 'automations.edit' | 'automations.pause' | 'automations.resume' | 'automations.runNow' | 'automations.remove' | 'automations.runs'
>;

export function automationMethods(ctx: ApiContext): AutomationMethods {
  const automations = ctx.app.automations;
  return {
    'automations.list': async () => (await automations.list()).map(toAutomation),
    'automations.add': async (input) => toAutomation(await automations.add(input)),
    'automations.edit': async (input) => toAutomation(await automations.edit(input)),
    'automations.pause': async ({ automationId }) => toAutomation(await automations.pause(automationId)),
    'automations.resume': async ({ automationId }) => toAutomation(await automations.resume(automationId)),
    'automations.runNow': async ({ automationId }) => {
      const { row } = await automations.get(automationId);
      return toAutomation(await automations.runNow(automationId, await ctx.person(row.place)));
    },
    'automations.remove': async ({ automationId }) => ({ removed: await automations.remove(automationId) }),
    'automations.runs': async ({ automationId, limit }) => {
      const { row } = await automations.get(automationId);
      return (await automations.runsOf(automationId, limit ?? 20)).map((run) => toAutomationRun(row.place, row.room_id, run));
    },
  };
}
