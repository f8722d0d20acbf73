// The lookups activation routing needs (mcp-tools.md §5.3), each bounded and indexed.
import type { Queryable } from './port';
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
