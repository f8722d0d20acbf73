// approvals.*: the person's answer to a tool use an agent asked about (from a managed "Ask me"
// turn or an interactive session's permission relay), from this computer or a paired phone
// (which the item then names). The first answer wins; a late one changes nothing and says so.
import type { Answerer } from '../../approvals/approvals';
import type { ApiContext } from '../context';
import type { Methods } from './types';

export function approvalMethods(ctx: ApiContext): Methods<'approvals.decide'> {
  return {
    'approvals.decide': async ({ number, decision, note }) => {
      const person = await ctx.person();
      return ctx.app.hub.services.approvals.decide(number, decision, note ?? null, answererOf(ctx, person.label));
    },
  };
}

/** The person, and the phone they answered from (null: this computer). */
export function answererOf(ctx: ApiContext, person: string): Answerer {
  return { person, via: ctx.caller.kind === 'phone' ? ctx.caller.deviceName : null };
}
