// The lookups activation routing needs (mcp-tools.md §5.3), each bounded and indexed.
import type { Queryable, Tx } from './port';
import type { ConcernRole } from './messageRows';

/** Task numbers in the room whose active work or review lease `agentKey` holds. */
export async function heldTaskNumbers(q: Queryable, roomId: string, agentKey: string): Promise<number[]> {
  const rows = await q.all<{ task_number: number }>(
    "SELECT task_number FROM task_leases WHERE agent_key = ? AND status = 'active' AND room_id = ? LIMIT 10000",
    agentKey, roomId,
  );
  return rows.map((r) => r.task_number);
}

/** True when `agentKey` published the thread's root, or a reply before `beforeNumber`. */
export async function participatedBefore(q: Queryable, roomId: string, rootNumber: number, beforeNumber: number, agentKey: string): Promise<boolean> {
  const participant = await q.get(
    'SELECT 1 FROM thread_participants WHERE room_id = ? AND root_number = ? AND agent_key = ?',
    roomId, rootNumber, agentKey,
  );
  if (!participant) return false;
  const row = await q.get(
    `SELECT 1 FROM messages WHERE room_id = ? AND number = ? AND publisher_agent_key = ?
       UNION ALL
       SELECT 1 FROM messages WHERE room_id = ? AND thread_root_number = ? AND number < ? AND publisher_agent_key = ?
       LIMIT 1`,
    roomId, rootNumber, agentKey, roomId, rootNumber, beforeNumber, agentKey,
  );
  return row !== undefined;
}

/** How a system event concerns `agentKey`, recorded when it was posted; undefined when it does not. */
export function eventConcern(q: Queryable, roomId: string, number: number, agentKey: string): Promise<{ role: ConcernRole; task_number: number | null } | undefined> {
  return q.get<{ role: ConcernRole; task_number: number | null }>(
    'SELECT role, task_number FROM event_concerns WHERE room_id = ? AND message_number = ? AND agent_key = ?',
    roomId, number, agentKey,
  );
}

/** Every agent a system event concerns, as recorded when it was posted. */
export function eventConcernsOf(q: Queryable, roomId: string, number: number): Promise<Array<{ agent_key: string; role: ConcernRole; task_number: number | null }>> {
  return q.all<{ agent_key: string; role: ConcernRole; task_number: number | null }>(
    'SELECT agent_key, role, task_number FROM event_concerns WHERE room_id = ? AND message_number = ? ORDER BY agent_key LIMIT 1000',
    roomId, number,
  );
}

/** A recent message as the untagged-message rule reads it, with the publisher of the agent message it replies to. */
export interface RecentRoutingRow {
  source: 'agent' | 'human' | 'system';
  kind: 'message' | 'status' | 'event';
  text: string;
  publisher_agent_key: string | null;
  reply_to_agent_key: string | null;
  routed_to: string | null;
}

/** Of the room's newest `limit` messages, those created since `since` (ISO), newest first (reads at most `limit` rows). */
export function recentForRouting(q: Queryable, roomId: string, since: string, limit: number): Promise<RecentRoutingRow[]> {
  return q.all<RecentRoutingRow>(
    `SELECT m.source, m.kind, m.text, m.publisher_agent_key, t.publisher_agent_key AS reply_to_agent_key, m.routed_to
       FROM messages m LEFT JOIN messages t ON t.room_id = m.room_id AND t.number = m.reply_to_number
       WHERE m.room_id = ? AND m.number >= (SELECT next_message_number - ? FROM rooms WHERE room_id = ?) AND m.created_at >= ?
       ORDER BY m.number DESC LIMIT ?`,
    roomId, limit, roomId, since, limit,
  );
}

/** The agents holding an active work lease in the room. */
export async function workLeaseHolders(q: Queryable, roomId: string): Promise<string[]> {
  const rows = await q.all<{ agent_key: string }>(
    "SELECT DISTINCT agent_key FROM task_leases WHERE room_id = ? AND status = 'active' AND kind = 'work' AND agent_key IS NOT NULL LIMIT 100",
    roomId,
  );
  return rows.map((r) => r.agent_key);
}

/**
 * Why a managed agent's turn, started by a message, ended without a room message (issue 34 item 3).
 * Stored as text with no CHECK on either engine, so a new reason needs no migration; readers
 * take `reason` as any string (an app of the same team may be newer than this one).
 */
export type NoReplyReason = 'passed' | 'empty' | 'output_limit' | 'denied_tool' | 'approval_expired' | 'failed' | 'stopped' | 'timed_out';

/** True when `agentKey` posted a room message numbered above `afterNumber`. */
export async function postedAfter(q: Queryable, roomId: string, agentKey: string, afterNumber: number): Promise<boolean> {
  const row = await q.get(
    "SELECT 1 FROM messages WHERE room_id = ? AND number > ? AND publisher_agent_key = ? AND source = 'agent' AND kind = 'message' LIMIT 1",
    roomId, afterNumber, agentKey,
  );
  return row !== undefined;
}

/**
 * Records that `agentKey` read message `number` and did not answer it, and why (the latest turn's
 * reason wins, except over an @all turn it was recorded away from: broadcastTurnQueries.ts).
 */
export async function recordNoReply(tx: Tx, roomId: string, number: number, agentKey: string, reason: NoReplyReason): Promise<void> {
  await tx.run(
    `INSERT INTO no_replies (room_id, message_number, agent_key, reason, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (room_id, message_number, agent_key) DO UPDATE SET reason = excluded.reason, created_at = excluded.created_at
       WHERE no_replies.reason <> 'away'`,
    roomId, number, agentKey, reason, tx.now,
  );
}

/** The agents that read message `number` and did not answer, with why (an agent away from an @all's turn did not read it: its turn says so). */
export function noRepliesTo(q: Queryable, roomId: string, number: number): Promise<Array<{ agent_key: string; reason: string }>> {
  return q.all<{ agent_key: string; reason: string }>(
    "SELECT agent_key, reason FROM no_replies WHERE room_id = ? AND message_number = ? AND reason <> 'away' ORDER BY agent_key LIMIT 100",
    roomId, number,
  );
}
