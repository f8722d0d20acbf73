// The "Needs you" queue: agents' requests, tasks in review or blocked, and mentions.
import { z } from 'zod';
import { Place, RoomId, RoomNumber, Timestamp } from './common';

/** Which thing an item is about: a request (req_N), a task (task_N) or a message (msg_N). */
export const NeedsYouRef = z.strictObject({
  kind: z.enum(['request', 'task', 'mention']),
  roomId: RoomId,
  number: RoomNumber,
  /** The room's place; omitted: 'local'. Items of a team's rooms reach every person of the team. */
  place: Place.optional(),
});

export const NeedsYouReason = z.enum(['question', 'decision', 'approval', 'review', 'task_in_review', 'task_blocked', 'mention']);

export const NeedsYouItem = z.object({
  ref: NeedsYouRef,
  reason: NeedsYouReason,
  roomName: z.string(),
  title: z.string(),
  body: z.string(),
  /** Display name of who asked (the requester, the holder, the sender). */
  from: z.string(),
  createdAt: Timestamp,
  recommendation: z.string().nullable(),
  unblocks: z.string().nullable(),
  /** Where the conversation lives: the thread the answer will be posted under. */
  threadRootNumber: RoomNumber.nullable(),
});

export const NeedsYouList = z.object({ items: z.array(NeedsYouItem) });

export type NeedsYouRef = z.infer<typeof NeedsYouRef>;
export type NeedsYouReason = z.infer<typeof NeedsYouReason>;
export type NeedsYouItem = z.infer<typeof NeedsYouItem>;
