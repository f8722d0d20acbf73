// Managed agents and their turns as the UI (and the `agent` command) shows them.
import { mapInOrder } from '../../domain/inOrder';
import type { AgentActivity, ManagedAgent, TurnView } from '../../../shared/model/managedAgents';
import { heldReasonText } from '../../agents/budgets';
import { parseCantRun } from '../../agents/cantRun';
import { waitingMessages } from '../../agents/waitingTriggers';
import type { ManagedAgentRecord } from '../../agents/agentRecord';
import { providerName } from '../../agents/providers';
import type { Queryable } from '../../store/port';
import { listActivityRowsOfTurn, listTurnRows } from '../../store/managedAgentQueries';
import { turnTagsOfAgent, type TurnTag } from '../../store/automationQueries';

const tagOf = (tag: TurnTag | undefined) => (tag ? { automationId: tag.automation_id, name: tag.name, run: tag.run_number } : null);

export function toManagedAgent(record: ManagedAgentRecord): ManagedAgent {
  const { row, session, worker, budget } = record;
  const last = record.lastTurn;
  const cantRun = parseCantRun(row.cant_run_json);
  return {
    agentId: row.agent_id,
    name: session?.display_name ?? worker?.display_name ?? (row.name || 'Agent'),
    provider: row.provider,
    providerName: providerName(row.provider),
    folder: row.folder,
    roomId: row.room_id,
    place: row.place,
    roomName: record.roomName,
    sessionId: session?.session_id ?? '',
    agentKey: worker?.agent_key ?? null,
    instructions: row.instructions,
    model: row.model,
    permissions: row.permissions,
    turnsPerHour: row.turns_per_hour,
    dailyTokenCap: row.daily_token_cap,
    desiredState: row.desired_state,
    state:
      record.turnState === 'running'
        ? 'running'
        : cantRun
          ? 'cant_run'
          : row.held_reason !== null
          ? 'held'
          : row.limit_until !== null
            ? 'limited'
            : row.desired_state === 'paused'
              ? 'paused'
              : record.turnState,
    heldReason: row.held_reason === null ? null : `It takes no turns: ${heldReasonText(row, row.held_reason)}.`,
    cantRun: cantRun ? { reason: cantRun.reason, fix: cantRun.fix } : null,
    waitingMessages: waitingMessages(row),
    resumesAt: row.limit_until,
    retryAt: record.retryAt,
    usage: { turnsLastHour: budget.turnsLastHour, tokensToday: budget.tokensToday, costTodayUsd: budget.costTodayUsd },
    lastTurn: last ? { number: last.number, status: last.status, startedAt: last.started_at, endedAt: last.ended_at } : null,
    workspace: record.workspace,
    createdAt: row.created_at,
  };
}

/** The latest turns, newest first, each with its log and the automation whose run took it. */
export async function agentActivity(q: Queryable, agentId: string, limit: number): Promise<AgentActivity> {
  const rows = await listTurnRows(q, agentId, limit);
  const tags = new Map((await turnTagsOfAgent(q, agentId, rows.at(-1)?.number ?? 1)).map((t) => [t.turn_number, t]));
  const turns: TurnView[] = await mapInOrder(rows, async (t) => ({
    number: t.number,
    // Kept as run_now in the table (automationQueries: turnTagsOfAgent names the run).
    trigger: tags.has(t.number) ? 'automation' : t.trigger_kind,
    triggerText: t.trigger_text,
    status: t.status,
    startedAt: t.started_at,
    endedAt: t.ended_at,
    durationMs: t.ended_at === null ? null : Date.parse(t.ended_at) - Date.parse(t.started_at),
    inputTokens: t.input_tokens,
    outputTokens: t.output_tokens,
    costUsd: t.cost_usd,
    error: t.error,
    automation: tagOf(tags.get(t.number)),
    entries: (await listActivityRowsOfTurn(q, agentId, t.number)).map((a) => ({ seq: a.seq, kind: a.kind, text: a.text, createdAt: a.created_at })),
  }));
  return { agentId, turns };
}
