// The lookups activation routing needs (mcp-tools.md §5.3), each bounded and indexed.
import type { Db } from './database';
import type { ConcernRole } from './messageRows';

/** Task numbers in the room whose active work or review lease `agentKey` holds. */
export function heldTaskNumbers(db: Db, roomId: string, agentKey: string): number[] {
  const rows = db
    .prepare("SELECT task_number FROM task_leases WHERE agent_key = ? AND status = 'active' AND room_id = ? LIMIT 10000")
    .all(agentKey, roomId) as { task_number: number }[];
  return rows.map((r) => r.task_number);
}

/** True when `agentKey` published the thread's root, or a reply before `beforeNumber`. */
export function participatedBefore(db: Db, roomId: string, rootNumber: number, beforeNumber: number, agentKey: string): boolean {
  const participant = db
    .prepare('SELECT 1 FROM thread_participants WHERE room_id = ? AND root_number = ? AND agent_key = ?')
    .get(roomId, rootNumber, agentKey);
  if (!participant) return false;
  const row = db
    .prepare(
      `SELECT 1 FROM messages WHERE room_id = ? AND number = ? AND publisher_agent_key = ?
       UNION ALL
       SELECT 1 FROM messages WHERE room_id = ? AND thread_root_number = ? AND number < ? AND publisher_agent_key = ?
       LIMIT 1`,
    )
    .get(roomId, rootNumber, agentKey, roomId, rootNumber, beforeNumber, agentKey);
  return row !== undefined;
}

/** How a system event concerns `agentKey`, recorded when it was posted; undefined when it does not. */
export function eventConcern(db: Db, roomId: string, number: number, agentKey: string): { role: ConcernRole; task_number: number | null } | undefined {
  return db
    .prepare('SELECT role, task_number FROM event_concerns WHERE room_id = ? AND message_number = ? AND agent_key = ?')
    .get(roomId, number, agentKey) as { role: ConcernRole; task_number: number | null } | undefined;
}

/** Every agent a system event concerns, as recorded when it was posted. */
export function eventConcernsOf(db: Db, roomId: string, number: number): Array<{ agent_key: string; role: ConcernRole; task_number: number | null }> {
  return db
    .prepare('SELECT agent_key, role, task_number FROM event_concerns WHERE room_id = ? AND message_number = ? ORDER BY agent_key LIMIT 1000')
    .all(roomId, number) as Array<{ agent_key: string; role: ConcernRole; task_number: number | null }>;
}
