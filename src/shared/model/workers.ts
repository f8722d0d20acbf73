// Agents as the roster and the room header's presence chips show them: one entry per
// agent session (an agent in a room). The UI groups entries by agentKey for "rooms".
import { z } from 'zod';
import { TaskStatusSchema } from './tasks';
import { Place, RoomId, RoomNumber, Timestamp } from './common';

export const AgentStatus = z.enum(['idle', 'working', 'reviewing', 'blocked']);

/** Why wait_for_messages woke the agent: the routing reason of mcp-tools.md §5.3. */
export const WakeReason = z.enum(['explicit_mention', 'broadcast', 'system_event', 'reply_target', 'thread_participant', 'task_owner', 'unaddressed']);
/** For a room event: the agent's part in it (a task it proposed, holds, reviews or was assigned; it was renamed or removed). */
export const WakeConcern = z.enum(['proposer', 'holder', 'reviewer', 'assignee', 'renamed', 'removed']);

/** One wake of an agent: a wait_for_messages result that activated it (kept in memory while the app runs). */
export const Wake = z.object({
  at: Timestamp,
  roomId: RoomId,
  /** The first message of the result that woke it. */
  messageNumber: RoomNumber,
  reason: WakeReason,
  concern: WakeConcern.nullable(),
  taskNumber: RoomNumber.nullable(),
  /** Who posted that message (a name); null for the app's own room events. */
  from: z.string().nullable(),
  /** The start of that message, on one line. */
  excerpt: z.string(),
  /** How many messages of that result woke it. */
  messages: z.number().int().min(1),
});

export const AgentSession = z.object({
  sessionId: z.string(),
  agentKey: z.string(),
  roomId: RoomId,
  /** The room's place: 'local' or a team's name. */
  place: Place,
  /** In a team's room: the name of the machine whose app holds (or last held) the agent; null on this computer. */
  machine: z.string().nullable(),
  roomName: z.string(),
  name: z.string(),
  ide: z.string().nullable(),
  owner: z.string().nullable(),
  /** Connected now (bound to an open connection). */
  online: z.boolean(),
  /** Ended by a disconnect or removal; it can reconnect. */
  ended: z.boolean(),
  status: AgentStatus,
  statusText: z.string(),
  lastSeenAt: Timestamp,
  tasksHeld: z.array(z.object({ number: RoomNumber, title: z.string(), status: TaskStatusSchema })),
  /** Its latest wake since the app started; null when none. */
  lastWake: Wake.nullable(),
});

export type AgentStatus = z.infer<typeof AgentStatus>;
export type WakeReason = z.infer<typeof WakeReason>;
export type Wake = z.infer<typeof Wake>;
export type AgentSession = z.infer<typeof AgentSession>;
