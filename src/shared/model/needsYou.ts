// The "Needs you" queue: agents' requests, tasks in review or blocked, mentions, and what the
// app itself noticed (issue 14): a message or task an agent has not picked up, a loop the loop
// guard paused, a used-up budget.
import { z } from 'zod';
import { Place, RoomId, RoomNumber, Timestamp } from './common';
import { ApprovalInfo } from './approvals';
import { AlertAction } from './delivery';
import { Reachability } from './workers';

/**
 * Which thing an item is about: a request (req_N), a task (task_N), a message (msg_N), an item
 * the app raised, or a tool use an agent asks to be allowed (number: the approval's, on this computer).
 */
export const NeedsYouRef = z.strictObject({
  kind: z.enum(['request', 'task', 'mention', 'alert', 'approval']),
  roomId: RoomId,
  number: RoomNumber,
  /** The room's place; omitted: 'local'. Items of a team's rooms reach every person of the team. */
  place: Place.optional(),
});

export const NeedsYouReason = z.enum([
  'question', 'decision', 'approval', 'review', 'task_in_review', 'task_blocked', 'mention',
  'unanswered', 'idle_task', 'loop', 'room_budget', 'agent_budget', 'agent_cant_run', 'tool_approval', 'automation_failed',
]);

const AgentRef = z.object({ sessionId: z.string(), name: z.string(), reachability: Reachability });

/** What the app raised an item about, and what the person can do to it (besides Dismiss). */
export const AlertInfo = z.object({
  actions: z.array(AlertAction),
  /** Text to paste into the agent's own chat ("Read LetAgents room X and reply to msg_41."), or null. */
  prompt: z.string().nullable(),
  /** The agent it is about, with its reachability now. */
  agent: AgentRef.nullable(),
  /** Agents the work can be handed to. */
  handoffTo: z.array(AgentRef),
  /** When the person last reminded the agent. */
  remindedAt: Timestamp.nullable(),
});

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
  /** Set for the items the app raised (ref kind "alert"): they take actions, not an answer. */
  alert: AlertInfo.nullable().default(null),
  /** Set for a tool use waiting for the person's answer (ref kind "approval"). */
  approval: ApprovalInfo.nullable().default(null),
});

export const NeedsYouList = z.object({ items: z.array(NeedsYouItem) });

export type NeedsYouRef = z.infer<typeof NeedsYouRef>;
export type NeedsYouReason = z.infer<typeof NeedsYouReason>;
export type NeedsYouItem = z.infer<typeof NeedsYouItem>;
export type AlertInfo = z.infer<typeof AlertInfo>;

/**
 * True while the item waits for the person: every item but an approval whose answer is on its
 * way or over (those stay in the queue a while, showing how the answer travelled).
 */
export function waitsForPerson(item: Pick<NeedsYouItem, 'approval'>): boolean {
  const phase = item.approval?.state.phase;
  return phase === undefined || phase === 'waiting' || phase === 'undelivered';
}

/** One key per item across places, for telling items apart (screens, notifications, links). */
export function needsYouKey(ref: NeedsYouRef): string {
  return `${ref.kind}:${ref.place ?? 'local'}:${ref.roomId}:${ref.number}`;
}
