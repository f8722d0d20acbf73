// The rows of @all answered in turn (issue 34 item 2, migration 15): a room's reply_to_all
// setting, each broadcast's turn order (broadcast_turns) and what the turn rule reads about
// it (the agents' answers after it and their passes), each bounded and indexed.
import type { Queryable, Tx } from './port';

export interface BroadcastTurnRow {
  message_number: number;
  agent_key: string;
  position: number;
  handed_at: string | null;
}

/** Most agents a broadcast's order holds (the rule's bound is lower); keeps every read bounded. */
const MAX_ORDER = 16;
/** Most broadcasts of a room an agent can be waiting on at once that one look reads. */
const MAX_OPEN_TURNS = 50;

export async function updateRoomReplyToAll(tx: Tx, roomId: string, mode: string): Promise<void> {
  await tx.run('UPDATE rooms SET reply_to_all = ?, updated_at = ? WHERE room_id = ?', mode, tx.now, roomId);
}

/** Stores a broadcast's order, first agent at position 0. */
export async function insertBroadcastTurns(tx: Tx, roomId: string, number: number, order: readonly string[]): Promise<void> {
  for (const [position, agentKey] of order.entries()) {
    await tx.run('INSERT INTO broadcast_turns (room_id, message_number, agent_key, position) VALUES (?, ?, ?, ?)', roomId, number, agentKey, position);
  }
}

/** A broadcast's order, first agent first; empty when it takes no turns. */
export function selectBroadcastTurns(q: Queryable, roomId: string, number: number): Promise<BroadcastTurnRow[]> {
  return q.all<BroadcastTurnRow>(
    'SELECT message_number, agent_key, position, handed_at FROM broadcast_turns WHERE room_id = ? AND message_number = ? ORDER BY position LIMIT ?',
    roomId, number, MAX_ORDER,
  );
}

/** The broadcasts of the room whose turn `agentKey` has not been handed yet, oldest first. */
export function unhandedTurnsOf(q: Queryable, roomId: string, agentKey: string): Promise<BroadcastTurnRow[]> {
  return q.all<BroadcastTurnRow>(
    'SELECT message_number, agent_key, position, handed_at FROM broadcast_turns WHERE room_id = ? AND agent_key = ? AND handed_at IS NULL ORDER BY message_number LIMIT ?',
    roomId, agentKey, MAX_OPEN_TURNS,
  );
}

/** Hands `agentKey` its turn of broadcast `number` (a wait returned it, a managed turn started); false when it was handed already. */
export async function handTurn(tx: Tx, roomId: string, number: number, agentKey: string): Promise<boolean> {
  const { changes } = await tx.run(
    'UPDATE broadcast_turns SET handed_at = ? WHERE room_id = ? AND message_number = ? AND agent_key = ? AND handed_at IS NULL',
    tx.now, roomId, number, agentKey,
  );
  return changes === 1;
}

/** An agent's first room message after a broadcast. */
export interface TurnAnswerRow {
  number: number;
  publisher_agent_key: string;
  /** Its sender label ("Juniper | Ada's agent | Claude Code"): the name it answered under. */
  sender: string;
  text: string;
  created_at: string;
}

/**
 * The first room message each of `agentKeys` posted after message `number` (its answer), oldest
 * first. Reads at most `perAgent` messages of each agent.
 */
export async function firstAnswersAfter(q: Queryable, roomId: string, number: number, agentKeys: readonly string[]): Promise<TurnAnswerRow[]> {
  const out: TurnAnswerRow[] = [];
  for (const agentKey of agentKeys.slice(0, MAX_ORDER)) {
    const row = await q.get<TurnAnswerRow>(
      `SELECT number, publisher_agent_key, sender, text, created_at FROM messages
         WHERE room_id = ? AND publisher_agent_key = ? AND number > ? AND source = 'agent' AND kind = 'message'
         ORDER BY number LIMIT 1`,
      roomId, agentKey, number,
    );
    if (row) out.push(row);
  }
  return out.sort((a, b) => a.number - b.number);
}

/** When each agent that passed on message `number` did, or was recorded away from it (its no_replies row, reason `away`). */
export function passesOn(q: Queryable, roomId: string, number: number): Promise<Array<{ agent_key: string; reason: string; created_at: string }>> {
  return q.all<{ agent_key: string; reason: string; created_at: string }>(
    'SELECT agent_key, reason, created_at FROM no_replies WHERE room_id = ? AND message_number = ? ORDER BY agent_key LIMIT ?',
    roomId, number, MAX_ORDER,
  );
}

/**
 * Records `agentKey` away from broadcast `number` now (a no_replies row of reason `away`, so the
 * poll fallback notices it as it does a pass: migration 16). A pass or answer recorded first
 * stays; false when there was one already.
 */
export async function recordTurnAway(tx: Tx, roomId: string, number: number, agentKey: string): Promise<boolean> {
  const { changes } = await tx.run(
    `INSERT INTO no_replies (room_id, message_number, agent_key, reason, created_at) VALUES (?, ?, ?, 'away', ?)
       ON CONFLICT (room_id, message_number, agent_key) DO NOTHING`,
    roomId, number, agentKey, tx.now,
  );
  return changes === 1;
}

/** The workers of the room's managed agents that take no turns now (paused or held): away from an @all's turns. */
export async function pausedManagedWorkers(q: Queryable, roomId: string): Promise<string[]> {
  return (await q.all<{ worker_id: string }>('SELECT worker_id FROM managed_members WHERE room_id = ? AND takes_turns = 0 LIMIT ?', roomId, 1000)).map((r) => r.worker_id);
}

/** The broadcasts of the room whose turn `agentKey` was handed since `since` (ISO): only those can still be its turn. */
export function recentlyHandedTurnsOf(q: Queryable, roomId: string, agentKey: string, since: string): Promise<BroadcastTurnRow[]> {
  return q.all<BroadcastTurnRow>(
    'SELECT message_number, agent_key, position, handed_at FROM broadcast_turns WHERE room_id = ? AND agent_key = ? AND handed_at >= ? ORDER BY message_number LIMIT ?',
    roomId, agentKey, since, MAX_OPEN_TURNS,
  );
}

/** The newest broadcasts since message `fromNumber` whose order holds `agentKey` (its answer moves their turns). */
export async function recentTurnsOf(q: Queryable, roomId: string, agentKey: string, fromNumber: number): Promise<number[]> {
  const rows = await q.all<{ message_number: number }>(
    'SELECT message_number FROM broadcast_turns WHERE room_id = ? AND agent_key = ? AND message_number >= ? ORDER BY message_number DESC LIMIT ?',
    roomId, agentKey, fromNumber, 10,
  );
  return rows.map((r) => r.message_number);
}
