// Agents as the roster and the room header's presence chips show them: one entry per
// agent session (an agent in a room). The UI groups entries by agentKey for "rooms".
import { z } from 'zod';
import { TaskStatusSchema } from './tasks';
import { RoomId, RoomNumber, Timestamp } from './common';

export const AgentStatus = z.enum(['idle', 'working', 'reviewing', 'blocked']);

export const AgentSession = z.object({
  sessionId: z.string(),
  agentKey: z.string(),
  roomId: RoomId,
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
});

export type AgentStatus = z.infer<typeof AgentStatus>;
export type AgentSession = z.infer<typeof AgentSession>;
