// Managed agents in plain words: states, permissions, usage and turn outcomes.
import type { AgentPermissions, ManagedAgent, TurnStatus, TurnView } from '../../../../../shared/types';

/** One label per state, shared with the roster and `agent list` (shared/model/agentState.ts). */
export { MANAGED_STATE_WORDS as STATE_WORDS } from '../../../../../shared/model/agentState';

export const PERMISSION_WORDS: Record<AgentPermissions, { label: string; detail: string }> = {
  read_only: { label: 'Read the folder only', detail: 'It can read its folder (nothing outside it) and use LetAgents; it cannot change files or run commands.' },
  edit: { label: 'Edit files in the folder', detail: 'It can also create and change files in its folder; nothing outside it.' },
  ask: { label: 'Ask me', detail: 'It may also run commands and change files, but each use waits for your answer in Needs you. Claude Code only.' },
  provider_default: { label: 'What my provider settings allow', detail: "Whatever your own Claude Code or Codex settings allow (the folder's own settings never count); LetAgents' tools are always allowed." },
};

export const TURN_WORDS: Record<TurnStatus, string> = {
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  stopped: 'Stopped',
  timed_out: 'Ran out of time',
};

const number = (n: number) => n.toLocaleString('en-US');
const dollars = (usd: number) => (usd > 0 && usd < 0.01 ? '<$0.01' : `$${usd.toFixed(2)}`);

/** "1 message waiting" / "3 messages waiting": what its next turn gets; null for none. */
export function waitingText(agent: ManagedAgent): string | null {
  const n = agent.waitingMessages;
  return n === 0 ? null : `${number(n)} ${n === 1 ? 'message' : 'messages'} waiting`;
}

export function usageText(agent: ManagedAgent): string {
  const turns = `${agent.usage.turnsLastHour}${agent.turnsPerHour === null ? '' : ` of ${agent.turnsPerHour}`} turns this hour`;
  const tokens = `${number(agent.usage.tokensToday)}${agent.dailyTokenCap === null ? '' : ` of ${number(agent.dailyTokenCap)}`} tokens today`;
  const cost = agent.usage.costTodayUsd === null ? '' : ` · ${dollars(agent.usage.costTodayUsd)} today`;
  return `${turns} · ${tokens}${cost}`;
}

export function turnFacts(turn: TurnView): string {
  const parts = [TURN_WORDS[turn.status]];
  if (turn.durationMs !== null) parts.push(turn.durationMs < 1000 ? `${turn.durationMs} ms` : `${(turn.durationMs / 1000).toFixed(1)} s`);
  parts.push(`${number(turn.inputTokens + turn.outputTokens)} tokens`);
  if (turn.costUsd !== null) parts.push(`$${turn.costUsd.toFixed(4)}`);
  return parts.join(' · ');
}
