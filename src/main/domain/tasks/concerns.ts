// Who a task's system event concerns (mcp-tools.md §5.3 row 4): the agent that proposed the
// task, the agent holding its work lease and the agent holding its review lease, taken
// before and after the write, so an agent whose lease the write ended or handed on still
// hears of it, and an agent the task was handed to hears it was assigned.
import type { Queryable } from '../../store/port';
import { getTaskRow, type LeaseRow, type TaskRow } from '../../store/taskQueries';
import type { ConcernRole, EventConcern } from '../systemEvents';
import { activeReviewLease, activeWorkLease } from './leases';

export interface TaskParties {
  readonly proposer: string | null;
  readonly holder: string | null;
  readonly reviewer: string | null;
}

export async function taskParties(q: Queryable, task: TaskRow): Promise<TaskParties> {
  return {
    proposer: task.created_by_agent_key,
    holder: (await activeWorkLease(q, task))?.agent_key ?? null,
    reviewer: (await activeReviewLease(q, task))?.agent_key ?? null,
  };
}

/**
 * A status change, claim, release or handoff of `task`: everyone who was a party before
 * the write (`before`) or is one now. One role each, the most specific first.
 */
export async function changeConcerns(q: Queryable, before: TaskParties, task: TaskRow): Promise<EventConcern[]> {
  const after = await taskParties(q, await getTaskRow(q, task.room_id, task.number) ?? task);
  const roles = new Map<string, ConcernRole>();
  const add = (agentKey: string | null, role: ConcernRole) => {
    if (agentKey && !roles.has(agentKey)) roles.set(agentKey, role);
  };
  if (after.holder !== before.holder) add(after.holder, 'assignee');
  add(before.holder, 'holder');
  add(before.reviewer, 'reviewer');
  add(after.reviewer, 'reviewer');
  add(after.proposer, 'proposer');
  return [...roles].map(([agentKey, role]) => ({ agentKey, role, taskNumber: task.number }));
}

/** A person ended an agent's lease without moving the task (a review lease): that agent alone. */
export function leaseEndedConcerns(lease: LeaseRow): EventConcern[] {
  const role: ConcernRole = lease.kind === 'work' ? 'holder' : 'reviewer';
  return lease.agent_key ? [{ agentKey: lease.agent_key, role, taskNumber: lease.task_number }] : [];
}
