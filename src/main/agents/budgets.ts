// Budgets of a managed agent: turns started in the last hour and tokens (as its provider
// reports them) since midnight UTC. Resume after a hold starts a fresh window, so the
// counts start from the later of the window's start and that moment.
import type { Queryable } from '../store/port';
import { usageTotals, type HeldReason, type ManagedAgentRow } from '../store/managedAgentQueries';

export interface BudgetUse {
  turnsLastHour: number;
  tokensToday: number;
  costTodayUsd: number | null;
  /** The budget that is used up, or null. */
  reached: HeldReason | null;
}

const HOUR_MS = 3_600_000;

export async function budgetUse(q: Queryable, agent: ManagedAgentRow, now: Date): Promise<BudgetUse> {
  const reset = agent.budget_reset_at;
  const later = (a: string) => (reset !== null && reset > a ? reset : a);
  const hourStart = later(new Date(now.getTime() - HOUR_MS).toISOString());
  const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  const totals = await usageTotals(q, agent.agent_id, hourStart, later(midnight));
  const reached =
    agent.turns_per_hour !== null && totals.turnsSinceHour >= agent.turns_per_hour
      ? 'turns_per_hour'
      : agent.daily_token_cap !== null && totals.tokensSinceDay >= agent.daily_token_cap
        ? 'daily_tokens'
        : null;
  return { turnsLastHour: totals.turnsSinceHour, tokensToday: totals.tokensSinceDay, costTodayUsd: totals.costSinceDay, reached };
}

/** What a hold means, in the words the person reads in "Needs you" and on the agent's card. */
export function heldReasonText(agent: Pick<ManagedAgentRow, 'turns_per_hour' | 'daily_token_cap'>, reason: HeldReason): string {
  return reason === 'turns_per_hour'
    ? `it used its budget of ${agent.turns_per_hour} turn${agent.turns_per_hour === 1 ? '' : 's'} per hour`
    : `it used its daily budget of ${agent.daily_token_cap?.toLocaleString('en-US')} tokens`;
}
