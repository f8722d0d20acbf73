// Activation routing for wait_for_messages (mcp-tools.md §5.3): evaluated per message,
// for the routing identity, at delivery time. The first matching row decides. One row is
// ours (issue 14), right after self_message: `loop_paused`, silent, for a message between
// two agents the loop guard paused.
import { normalizeHandle } from '../identity/handles';
import { BROADCAST_HANDLES } from '../messages/mentions';
import type { ConcernRole } from '../systemEvents';
import type { RoutedTo } from './untagged';

export type RoutingReason =
  | 'self_message' | 'explicit_mention' | 'broadcast' | 'system_event' | 'system_noise' | 'explicit_other_mention'
  | 'reply_target' | 'thread_participant' | 'task_owner' | 'other_reply_target' | 'unaddressed' | 'loop_paused'
  // A person's message that names nobody (issue 34), by the decision stored with it (untagged.ts).
  | 'talking_with' | 'follow_up' | 'routed_elsewhere' | 'nobody_named'
  // A person's @all answered in turn (issue 34), before the recipient's turn started: held, not lost.
  | 'awaiting_turn';

/** How a system event concerns the recipient, as recorded when the event was posted. */
export interface Concern {
  readonly role: ConcernRole;
  readonly taskNumber: number | null;
}

export interface RoutingDecision {
  readonly decision: 'activate' | 'silent';
  readonly reason: RoutingReason;
  readonly addressed: boolean;
  /** For `system_event`: why the event concerns the recipient (shown with the wake, never sent to agents). */
  readonly concern?: Concern;
}

/** The fields of a stored message that routing reads. */
export interface RoutableMessage {
  readonly number: number;
  readonly kind: 'message' | 'status' | 'event';
  readonly source: 'agent' | 'human' | 'system';
  readonly text: string;
  readonly publisherAgentKey: string | null;
  readonly replyToNumber: number | null;
  readonly threadRootNumber: number | null;
  /** A person's message that names nobody: whom it wakes, decided when it was posted; null for others (and older rows). */
  readonly routedTo: RoutedTo | null;
}

/** What routing knows about the recipient and the room; the functions look up lazily, in the store. */
export interface RoutingContext {
  readonly agentKey: string;
  /** The recipient's display name after handle normalisation. */
  readonly handle: string;
  /** Normalised display names of every agent session of the room. */
  readonly roomAgentHandles: ReadonlySet<string>;
  /** Task numbers whose active work or review lease the recipient holds. */
  readonly heldTaskNumbers: ReadonlySet<number>;
  /** Worker sessions that are members of the room now (online, or managed agents between turns), sender and recipient included. */
  readonly activeWorkers: number;
  publisherOf(number: number): Promise<string | null>;
  /** True when the recipient published the thread's root or a reply before `beforeNumber`. */
  participatedBefore(rootNumber: number, beforeNumber: number): Promise<boolean>;
  /** How the system event `number` concerns the recipient; null when it does not. */
  concernOf(number: number): Promise<Concern | null>;
  /** A person's @all answered in turn: whether the recipient's turn started; null when it is not in the order (or none). */
  turnOf(number: number): Promise<'started' | 'waiting' | null>;
  /** True when the loop guard paused the publisher and the recipient from message `number` on. */
  loopPaused(publisherKey: string, number: number): boolean;
  mentionsIn(text: string): readonly string[];
}

const ACTIVE_WORKER_LIMIT = 3;

const activate = (reason: RoutingReason, addressed: boolean): RoutingDecision => ({ decision: 'activate', reason, addressed });
const silent = (reason: RoutingReason): RoutingDecision => ({ decision: 'silent', reason, addressed: false });

export async function routeMessage(message: RoutableMessage, ctx: RoutingContext): Promise<RoutingDecision> {
  if (message.publisherAgentKey !== null && message.publisherAgentKey === ctx.agentKey) return silent('self_message');
  // The loop guard (issue 14): agents it paused wake none of each other, whatever they write.
  if (message.source === 'agent' && message.publisherAgentKey !== null && ctx.loopPaused(message.publisherAgentKey, message.number)) {
    return silent('loop_paused');
  }
  // Rows 4 and 4b: a room event wakes only the agents it concerns, whatever its text says
  // (issue 34 item 4: an artifact's or pull request's title is text from outside, never an
  // instruction, so a mention in it wakes nobody). Status posts are room events too: they
  // announce what their author is doing, and concern no one else (a mention in one still wakes).
  if (message.source === 'system') {
    const concern = await ctx.concernOf(message.number);
    return concern ? { ...activate('system_event', false), concern } : silent('system_noise');
  }
  const mentions = ctx.mentionsIn(message.text).map(normalizeHandle);
  if (ctx.handle && mentions.includes(ctx.handle)) return activate('explicit_mention', true);
  if (mentions.some((m) => BROADCAST_HANDLES.has(m))) {
    // A person's @all answered in turn (issue 34): the recipient reads it when its turn starts.
    if (message.source === 'human' && (await ctx.turnOf(message.number)) === 'waiting') return silent('awaiting_turn');
    return activate('broadcast', true);
  }
  if (message.kind === 'status') return silent('system_noise');
  if (mentions.some((m) => m !== ctx.handle && ctx.roomAgentHandles.has(m))) {
    // A person's words in the thread an agent started, or in reply to it, concern that agent
    // too, even when they bring another agent in (issue 27): both wake.
    if (message.source === 'human') return (await personInOwnThread(message, ctx)) ?? silent('explicit_other_mention');
    return silent('explicit_other_mention');
  }
  const replyPublisher = message.replyToNumber !== null ? await ctx.publisherOf(message.replyToNumber) : null;
  if (replyPublisher !== null && replyPublisher === ctx.agentKey) return activate('reply_target', true);
  if (message.threadRootNumber !== null && (await ctx.participatedBefore(message.threadRootNumber, message.number))) {
    return activate('thread_participant', false);
  }
  if (namesHeldTask(message.text, ctx.heldTaskNumbers)) return activate('task_owner', false);
  if (message.replyToNumber !== null) return silent('other_reply_target');
  if (message.source === 'human') return untagged(message.routedTo, ctx.agentKey);
  return ctx.activeWorkers <= ACTIVE_WORKER_LIMIT ? activate('unaddressed', false) : silent('unaddressed');
}

/**
 * A person's message that names nobody wakes whom its post decided (untagged.ts): every agent in a
 * small room (one back online later too), the one agent named, or nobody; without a decision
 * (older rows, internal posts) every agent, as before issue 34.
 */
function untagged(route: RoutedTo | null, agentKey: string): RoutingDecision {
  if (route === null) return activate('unaddressed', false);
  switch (route.to) {
    case 'everyone':
      return activate('unaddressed', false);
    case 'agent':
      return route.agent === agentKey ? activate(route.why === 'partner' ? 'talking_with' : 'follow_up', true) : silent('routed_elsewhere');
    case 'nobody':
      return silent('nobody_named');
  }
}

async function personInOwnThread(message: RoutableMessage, ctx: RoutingContext): Promise<RoutingDecision | null> {
  if (message.replyToNumber !== null && (await ctx.publisherOf(message.replyToNumber)) === ctx.agentKey) return activate('reply_target', true);
  if (message.threadRootNumber !== null && (await ctx.publisherOf(message.threadRootNumber)) === ctx.agentKey) return activate('thread_participant', false);
  return null;
}

function namesHeldTask(text: string, held: ReadonlySet<number>): boolean {
  if (held.size === 0) return false;
  for (const match of text.matchAll(/\btask_([1-9][0-9]{0,9})\b/g)) {
    if (held.has(Number(match[1]))) return true;
  }
  return false;
}
