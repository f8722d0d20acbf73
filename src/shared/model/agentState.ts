// One state model for agents, one label per state, in every view and on the command line
// (issue 27): whether a mention reaches the agent now (Reachability, workers.ts) and, for a
// managed agent, where its turns stand. What an agent says it is doing (post_status) is its own
// words beside the state, never a second state word. Extend here: the views and `agent list`
// read these tables.
import type { ManagedAgentState } from './managedAgents';
import { REACHABILITY_WORDS, type Reachability } from './workers';

/** A managed agent's turns, in the same words everywhere (Agents page, `agent list`). */
export const MANAGED_STATE_WORDS: Readonly<Record<ManagedAgentState, string>> = {
  idle: REACHABILITY_WORDS.managed.label,
  queued: 'Waiting for a turn',
  running: 'Taking a turn',
  paused: 'Paused',
  held: 'Stopped: budget used',
  cant_run: "Can't run",
  limited: 'Usage limit: resumes by itself',
};

/** The one label of an agent session's state (the roster, the room header, the Assign dialog). */
export function agentStateLabel(agent: { reachability: Reachability; ended?: boolean }): string {
  return agent.ended ? 'Disconnected' : REACHABILITY_WORDS[agent.reachability].label;
}

/** What the agent says it is doing, as its own words ("Says: reviewing task_7"); null when it said nothing. */
export function agentSaysText(statusText: string | null | undefined): string | null {
  const text = statusText?.trim();
  return text ? `Says: ${text}` : null;
}
