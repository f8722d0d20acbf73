// approvals.*: the person's answer to a tool use an agent asked about (from a managed "Ask me"
// turn or an interactive session's permission relay). The first answer wins; a late one
// changes nothing and says so.
import type { ApiContext } from '../context';
import type { Methods } from './types';

export function approvalMethods(ctx: ApiContext): Methods<'approvals.decide'> {
  return {
    'approvals.decide': async ({ number, decision, note }) => {
      const person = await ctx.person();
      return ctx.app.hub.services.approvals.decide(number, decision, note ?? null, person.label);
    },
  };
}
