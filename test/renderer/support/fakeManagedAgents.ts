// An in-memory double of the agents.* methods for renderer tests: managed agents with
// their states, budgets and activity, following the contract's rules the UI relies on
// (held agents refuse Run now; Resume clears a hold).
import type { ApiImplementation } from '../../../src/main/api/dispatcher';
import { appErrors } from '../../../src/main/domain/errors';
import type { ManagedAgent, ProviderInfo, TurnView } from '../../../src/shared/types';
import { at } from './fakeData';

export function managedAgent(name: string, extra: Partial<ManagedAgent> = {}): ManagedAgent {
  return {
    agentId: `agent_${name.toLowerCase()}`,
    name,
    provider: 'claude_code',
    providerName: 'Claude Code',
    folder: `/home/ada/projects/${name.toLowerCase()}`,
    roomId: 'github.com/acme/checkout-service',
    roomName: 'github.com/acme/checkout-service',
    sessionId: `local_${name.toLowerCase()}`,
    agentKey: `${name.toLowerCase()}-key`,
    instructions: '',
    model: null,
    permissions: 'read_only',
    turnsPerHour: 20,
    dailyTokenCap: null,
    desiredState: 'running',
    state: 'idle',
    heldReason: null,
    cantRun: null,
    waitingMessages: 0,
    usage: { turnsLastHour: 0, tokensToday: 0, costTodayUsd: null },
    lastTurn: null,
    workspace: { kind: 'folder', path: `/home/ada/projects/${name.toLowerCase()}`, repo: null, branch: null, base: null, note: 'Works in the folder itself: it may only read.' },
    createdAt: at(0),
    ...extra,
  };
}

export interface FakeManagedAgents {
  agents: ManagedAgent[];
  activity: Record<string, TurnView[]>;
  providers: ProviderInfo[];
  overrides: Partial<ApiImplementation>;
}

export function fakeManagedAgents(agents: ManagedAgent[] = [], activity: Record<string, TurnView[]> = {}): FakeManagedAgents {
  const fake: FakeManagedAgents = {
    agents,
    activity,
    providers: [
      {
        id: 'claude_code', name: 'Claude Code', installed: true, installHint: 'Install Claude Code.', path: '/usr/local/bin/claude', warning: null,
        permissions: ['read_only', 'edit', 'ask', 'provider_default'], permissionsNote: null,
      },
      {
        id: 'codex', name: 'Codex', installed: false, installHint: 'Install Codex (npm install -g @openai/codex) and sign in once with `codex login`.', path: null, warning: null,
        permissions: ['read_only', 'edit', 'provider_default'], permissionsNote: 'Codex cannot ask you in the app before each tool use, so "Ask me" is not offered for it.',
      },
    ],
    overrides: {},
  };
  const find = (agentId: string) => fake.agents.find((a) => a.agentId === agentId) ?? throwIt(appErrors.notFound('Managed agent'));
  const update = (agentId: string, change: Partial<ManagedAgent>) => Object.assign(find(agentId), change);
  fake.overrides = {
    'agents.providers': () => fake.providers,
    'agents.list': () => fake.agents,
    'agents.add': (input) => {
      const added = managedAgent(input.name, {
        provider: input.provider,
        providerName: input.provider === 'codex' ? 'Codex' : 'Claude Code',
        folder: input.folder,
        roomId: input.roomId,
        roomName: input.roomId,
        permissions: input.permissions,
        instructions: input.instructions ?? '',
        model: input.model ?? null,
        turnsPerHour: input.turnsPerHour ?? null,
        dailyTokenCap: input.dailyTokenCap ?? null,
      });
      fake.agents.push(added);
      return added;
    },
    'agents.pause': ({ agentId }) => update(agentId, { desiredState: 'paused', state: find(agentId).state === 'running' ? 'running' : 'paused' }),
    'agents.resume': ({ agentId }) => update(agentId, { desiredState: 'running', state: 'idle', heldReason: null }),
    'agents.stop': ({ agentId }) => update(agentId, { state: find(agentId).desiredState === 'paused' ? 'paused' : 'idle' }),
    'agents.runNow': ({ agentId }) => {
      if (find(agentId).state === 'held') throw appErrors.invalidInput('It takes no turns. Resume it first.');
      return update(agentId, { state: 'running' });
    },
    'agents.remove': ({ agentId }) => {
      fake.agents = fake.agents.filter((a) => a.agentId !== agentId);
      return { removed: true };
    },
    'agents.activity': ({ agentId }) => ({ agentId, turns: fake.activity[agentId] ?? [] }),
  };
  return fake;
}

function throwIt(error: Error): never {
  throw error;
}
