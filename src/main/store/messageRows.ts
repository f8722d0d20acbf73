// Inserting message rows (the one place that does), plus thread participants and, for a
// system event, the agents it concerns.
import type { Tx } from './port';
import { allocateNumber } from './rooms';

/** Why a system event concerns an agent (mcp-tools.md §5.3 row 4). */
export type ConcernRole = 'proposer' | 'holder' | 'reviewer' | 'assignee' | 'renamed' | 'removed';

/** One agent a system event concerns: the task it is about (if any) and the agent's part in it. */
export interface EventConcern {
  readonly agentKey: string;
  readonly role: ConcernRole;
  readonly taskNumber: number | null;
}

export interface NewMessageRow {
  roomId: string;
  kind: 'message' | 'status' | 'event';
  source: 'agent' | 'human' | 'system';
  sender: string;
  text: string;
  replyToNumber?: number | null;
  threadRootNumber?: number | null;
  agentPromptKind?: 'join' | 'inline' | 'auto' | null;
  publisherAgentKey?: string | null;
  publisherSessionId?: string | null;
  /** A person's message that names nobody: whom it wakes (JSON, activation/untagged.ts). */
  routedTo?: string | null;
  /** System events only: the agents the event concerns, one row each. */
  concerns?: readonly EventConcern[];
}

/** Inserts a message with the room's next number and returns that number. */
export async function insertMessageRow(tx: Tx, row: NewMessageRow): Promise<number> {
  const number = await allocateNumber(tx, row.roomId, 'next_message_number');
  await tx.run(
    `INSERT INTO messages (room_id, number, kind, source, sender, text, reply_to_number, thread_root_number,
         agent_prompt_kind, publisher_agent_key, publisher_session_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    row.roomId, number, row.kind, row.source, row.sender, row.text,
    row.replyToNumber ?? null, row.threadRootNumber ?? null, row.agentPromptKind ?? null,
    row.publisherAgentKey ?? null, row.publisherSessionId ?? null, tx.now,
  );
  // Only a person's message that names nobody has one (set apart, so the insert reads as before).
  if (row.routedTo) await tx.run('UPDATE messages SET routed_to = ? WHERE room_id = ? AND number = ?', row.routedTo, row.roomId, number);
  if (row.publisherAgentKey) {
    const root = row.threadRootNumber ?? number;
    await tx.run(
      'INSERT INTO thread_participants (room_id, root_number, agent_key) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      row.roomId, root, row.publisherAgentKey,
    );
  }
  for (const concern of row.concerns ?? []) {
    await tx.run(
      'INSERT INTO event_concerns (room_id, message_number, agent_key, role, task_number) VALUES (?, ?, ?, ?, ?)',
      row.roomId, number, concern.agentKey, concern.role, concern.taskNumber,
    );
  }
  tx.emit({
    type: 'message.created',
    roomId: row.roomId,
    number,
    message: {
      kind: row.kind,
      source: row.source,
      text: row.text,
      publisherAgentKey: row.publisherAgentKey ?? null,
      replyToNumber: row.replyToNumber ?? null,
      createdAt: tx.now,
    },
  });
  return number;
}
