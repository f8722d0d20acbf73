// Automations and their runs as the Automations view (and `automation list`) shows them.
import type { Automation, AutomationRun } from '../../../shared/model/automations';
import { triggerText } from '../../../shared/automationWords';
import type { AutomationRecord } from '../../automations/automations';
import type { RunRow } from '../../store/automationQueries';

export function toAutomation(record: AutomationRecord): Automation {
  const { row, limits } = record;
  return {
    automationId: row.automation_id,
    name: row.name,
    place: row.place,
    roomId: row.room_id,
    roomName: record.roomName,
    target:
      row.target_kind === 'agent'
        ? { kind: 'agent', agentId: row.agent_id ?? '', name: record.agentName ?? 'removed agent', permissions: limits.permissions }
        : { kind: 'mention', handle: row.mention ?? '' },
    instructions: row.instructions,
    trigger: record.trigger,
    triggerText: triggerText(record.trigger),
    limits,
    state: row.desired_state,
    nextRunAt: record.nextRunAt,
    missed: row.missed_count > 0 && row.missed_last_at !== null ? { count: row.missed_count, lastAt: row.missed_last_at } : null,
    lastRun: record.lastRun ? toAutomationRun(record.row.place, record.row.room_id, record.lastRun) : null,
    running: record.running,
    notice: record.notice,
    createdAt: row.created_at,
  };
}

export function toAutomationRun(place: string, roomId: string, { run, turns }: { run: RunRow; turns: number[] }): AutomationRun {
  return {
    number: run.number,
    cause: run.cause,
    causeText: run.cause_text,
    status: run.status,
    reason: run.reason,
    missed: run.missed,
    dueAt: run.due_at,
    startedAt: run.started_at,
    endedAt: run.ended_at,
    turns,
    inputTokens: run.input_tokens,
    outputTokens: run.output_tokens,
    costUsd: run.cost_usd,
    reply: run.reply_number === null ? null : { roomId, place, number: run.reply_number },
    branch: run.branch,
  };
}
