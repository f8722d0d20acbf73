// agents.*: managed agents — add one, see them and their activity, pause, resume, stop
// the running turn, run one now, remove.
import { appErrors } from '../../domain/errors';
import { getManagedAgentRow } from '../../store/managedAgentQueries';
import type { ApiContext } from '../context';
import { agentActivity, toManagedAgent } from '../models/managedAgents';
import type { Methods } from './types';

type AgentMethods = Methods<
  'agents.providers' | 'agents.list' | 'agents.add' | 'agents.pause' | 'agents.resume' | 'agents.stop' | 'agents.runNow' | 'agents.remove' | 'agents.activity'
  | 'agents.changes' | 'agents.merge' | 'agents.update' | 'agents.askToRedo' | 'agents.discard' | 'agents.openFolder'
>;

export function agentMethods(ctx: ApiContext): AgentMethods {
  const agents = ctx.app.agents;
  return {
    'agents.providers': () => agents.providers(),
    'agents.list': async () => (await agents.list()).map(toManagedAgent),
    'agents.add': async (input) => toManagedAgent(await agents.add(input)),
    'agents.pause': async ({ agentId }) => toManagedAgent(await agents.pause(agentId)),
    'agents.resume': async ({ agentId }) => toManagedAgent(await agents.resume(agentId, await ctx.person())),
    'agents.stop': async ({ agentId }) => toManagedAgent(await agents.stop(agentId, await ctx.person())),
    'agents.runNow': async ({ agentId }) => toManagedAgent(await agents.runNow(agentId, await ctx.person())),
    'agents.remove': async ({ agentId, discardWork }) => ({ removed: await agents.remove(agentId, await ctx.person(), discardWork === true) }),
    'agents.changes': ({ agentId, diff }) => agents.changes(agentId, diff === true),
    'agents.merge': async ({ agentId }) => agents.merge(agentId, await ctx.person()),
    'agents.update': async ({ agentId }) => agents.updateFromBase(agentId, await ctx.person()),
    'agents.askToRedo': async ({ agentId }) => agents.askToRedo(agentId, await ctx.person()),
    'agents.discard': ({ agentId }) => agents.discard(agentId),
    'agents.openFolder': async ({ agentId }) => {
      const { workspace } = await agents.get(agentId);
      return { opened: ctx.host.openPath ? await ctx.host.openPath(workspace.path) : false };
    },
    'agents.activity': async ({ agentId, limit }) => {
      if (!(await ctx.app.core.store.read((q) => getManagedAgentRow(q, agentId)))) throw appErrors.notFound('Managed agent');
      return ctx.app.core.store.read((q) => agentActivity(q, agentId, limit ?? 20));
    },
  };
}
