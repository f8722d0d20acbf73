// Work and review leases (data-model.md §4.4–4.5): ids, creation, endings, and the lease
// object agents see. Ownership moves only through claim, release and handoff.
import { randomBytes } from 'node:crypto';
import type { Queryable, Tx } from '../../store/port';
import {
  endLeaseRow, getActiveLeaseRow, getSessionDisplayName, insertLeaseRow, setTaskAssignee,
  type Holder, type LeaseKind, type LeaseRow, type TaskRow,
} from '../../store/taskQueries';
import type { Actor, AgentActor } from '../actor';
import type { TaskStatus } from './transitions';

export interface LeaseObject {
  id: string;
  kind: LeaseKind;
  holder_label: string;
  agent_key: string | null;
  agent_session_id: string | null;
  status: LeaseRow['status'];
  created_at: string;
  updated_at: string;
}

export function toLeaseObject(row: LeaseRow): LeaseObject {
  return {
    id: row.lease_id, kind: row.kind, holder_label: row.holder_label, agent_key: row.agent_key,
    agent_session_id: row.session_id, status: row.status, created_at: row.created_at, updated_at: row.updated_at,
  };
}

/** `local_work_<epoch ms>_<base36 random>` or `local_review_…`. */
export function newLeaseId(kind: LeaseKind, now: string): string {
  const random = randomBytes(8).readBigUInt64BE().toString(36);
  return `local_${kind}_${Date.parse(now)}_${random}`;
}

export function holderOf(actor: AgentActor): Holder {
  return { label: actor.label, agentKey: actor.agentKey, sessionId: actor.sessionId };
}

export const activeWorkLease = (q: Queryable, task: TaskRow) => getActiveLeaseRow(q, task.room_id, task.number, 'work');
export const activeReviewLease = (q: Queryable, task: TaskRow) => getActiveLeaseRow(q, task.room_id, task.number, 'review');

/** Does this actor hold the lease? The holder is an agent key, whichever session it uses. */
export function holds(lease: LeaseRow | undefined, actor: Actor): boolean {
  return lease !== undefined && actor.kind === 'agent' && lease.agent_key === actor.agentKey;
}

/** Creates the task's work lease for `holder` and copies the holder into the assignee fields. */
export async function createWorkLease(tx: Tx, task: TaskRow, holder: Holder): Promise<LeaseRow> {
  const leaseId = newLeaseId('work', tx.now);
  await insertLeaseRow(tx, {
    lease_id: leaseId, room_id: task.room_id, task_number: task.number, kind: 'work',
    holder_label: holder.label, agent_key: holder.agentKey, session_id: holder.sessionId,
  });
  await setTaskAssignee(tx, task.room_id, task.number, holder);
  return await getActiveLeaseRow(tx, task.room_id, task.number, 'work') as LeaseRow;
}

export async function createReviewLease(tx: Tx, task: TaskRow, actor: AgentActor): Promise<LeaseRow> {
  // Holder label: the actor label, else the agent key, else "Local reviewer" (§4.5).
  const label = actor.label.trim() || actor.agentKey.trim() || 'Local reviewer';
  await insertLeaseRow(tx, {
    lease_id: newLeaseId('review', tx.now), room_id: task.room_id, task_number: task.number, kind: 'review',
    holder_label: label, agent_key: actor.agentKey, session_id: actor.sessionId,
  });
  return await getActiveLeaseRow(tx, task.room_id, task.number, 'review') as LeaseRow;
}

/**
 * Ends the leases a status change ends by itself: `done`/`cancelled` complete both
 * leases; `accepted` (reopen, or back from a release) releases both. A review lease
 * survives in_progress/blocked so the same reviewer can review again.
 */
export async function endLeasesForStatus(tx: Tx, task: TaskRow, to: TaskStatus): Promise<void> {
  const ending = to === 'done' || to === 'cancelled' ? 'completed' : to === 'accepted' ? 'released' : null;
  if (!ending) return;
  for (const kind of ['work', 'review'] as const) {
    const lease = await getActiveLeaseRow(tx, task.room_id, task.number, kind);
    if (lease) await endLeaseRow(tx, lease.lease_id, ending);
  }
}

/** The short name of a lease's holder for event text: its session's display name, else the label's name part. */
export async function holderShortName(q: Queryable, lease: LeaseRow): Promise<string> {
  const fromSession = lease.session_id ? await getSessionDisplayName(q, lease.session_id) : undefined;
  if (fromSession) return fromSession;
  // Labels look like "Juniper | Ada's agent | Claude Code", or the legacy "Juniper (Ada's agent)".
  const name = lease.holder_label.split(' | ')[0].replace(/\s*\([^)]*\)\s*$/, '').trim();
  return name || lease.holder_label;
}
