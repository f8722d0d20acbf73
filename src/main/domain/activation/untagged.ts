// Whom a person's message that names nobody wakes (issue 34 item 1): one pure rule, decided once
// when the message is posted and stored with it (messages.routed_to), so every wait, push,
// Codex queue wake and managed turn, on every machine, reads the same answer. The composer's
// "→ …" preview (wakePreview.ts) calls the same functions with the draft.
import { normalizeHandle } from '../identity/handles';
import { BROADCAST_HANDLES, extractMentions } from '../messages/mentions';
import type { WakePreview } from '../../../shared/model/messages';

/** The rows of the rule, in order: the first that applies decides. */
export const SMALL_ROOM_AGENTS = 2;
/** How far back "the agent the person was talking with" is looked for: 30 minutes and 50 messages. */
export const PARTNER_WINDOW_MS = 30 * 60_000;
export const PARTNER_WINDOW_MESSAGES = 50;

/**
 * Short follow-ups that go to the one agent holding a task when no conversation decides.
 * English only: the app speaks English, and a false match wakes an agent on its own, so the
 * list stays small and exact (a whole message, give or take "please", "thanks" and punctuation).
 * In any other language, mention the agent.
 */
export const SHORT_FOLLOW_UPS: ReadonlySet<string> = new Set([
  'try again', 'retry', 'again', 'go ahead', 'go on', 'continue', 'carry on', 'proceed', 'do it', 'yes', 'ok', 'okay',
  'open a pr', 'open the pr', 'merge it', 'push it', 'ship it', 'looks good', 'lgtm', 'sounds good', 'approved',
]);

/** Whom a person's message that names nobody wakes, as stored in messages.routed_to. */
export type RoutedTo =
  | { readonly to: 'everyone'; readonly agents: readonly string[] }
  | { readonly to: 'agent'; readonly agent: string; readonly why: 'partner' | 'follow_up' }
  | { readonly to: 'nobody' };

/** An agent session of the room (not ended). */
export interface RoomAgent {
  readonly agentKey: string;
  /** Display name after handle normalisation. */
  readonly handle: string;
  readonly name: string;
  /** A member now: online, or a managed agent between turns (as routing counts members). */
  readonly member: boolean;
}

/** A recent message, as the rule reads it. */
export interface RecentMessage {
  readonly source: 'agent' | 'human' | 'system';
  readonly kind: 'message' | 'status' | 'event';
  readonly text: string;
  readonly publisherAgentKey: string | null;
  /** The publisher of the message it replies to, when an agent. */
  readonly replyToAgentKey: string | null;
  readonly routedTo: RoutedTo | null;
}

/** What the rule knows about the room when the message is posted (untaggedFacts.ts reads it). */
export interface RoomFacts {
  readonly agents: readonly RoomAgent[];
  /** The room's messages of the last 30 minutes, at most 50, newest first. */
  readonly recent: readonly RecentMessage[];
  /** Agent keys holding an active work lease in the room. */
  readonly leaseHolders: readonly string[];
}

/** A message as the person writes it. */
export interface Draft {
  readonly text: string;
  readonly replyToNumber: number | null;
  readonly threadRootNumber: number | null;
}

/** True when a person's draft names nobody: no agent or broadcast mentioned, not a reply, not in a thread. */
export function namesNobody(draft: Draft, agents: readonly RoomAgent[]): boolean {
  if (draft.replyToNumber !== null || draft.threadRootNumber !== null) return false;
  return mentionedAgents(draft.text, agents).length === 0 && !mentionsBroadcast(draft.text);
}

/** The rule: whom a person's message that names nobody wakes. */
export function decideUntagged(text: string, facts: RoomFacts): RoutedTo {
  const members = facts.agents.filter((a) => a.member);
  if (members.length <= SMALL_ROOM_AGENTS) return { to: 'everyone', agents: members.map((a) => a.agentKey) };
  const partner = conversationPartner(facts);
  if (partner !== null) return { to: 'agent', agent: partner, why: 'partner' };
  const holders = new Set(facts.leaseHolders.filter((k) => facts.agents.some((a) => a.agentKey === k)));
  if (holders.size === 1 && isShortFollowUp(text)) return { to: 'agent', agent: [...holders][0], why: 'follow_up' };
  return { to: 'nobody' };
}

/** The routed_to of a person's message: the rule's answer when it names nobody, null otherwise. */
export function routeOfPost(draft: Draft, facts: RoomFacts): RoutedTo | null {
  return namesNobody(draft, facts.agents) ? decideUntagged(draft.text, facts) : null;
}

/** How a stored decision reads for a person (the composer before sending, the receipts after). */
export function previewOfRoute(route: RoutedTo, nameOf: (agentKey: string) => string): WakePreview {
  switch (route.to) {
    case 'everyone':
      return { to: 'everyone', names: route.agents.map(nameOf), count: route.agents.length, why: 'small_room' };
    case 'agent':
      return { to: 'agents', names: [nameOf(route.agent)], count: 1, why: route.why };
    case 'nobody':
      return { to: 'nobody', names: [], count: 0, why: 'nobody' };
  }
}

/** True when `text` is one of the short follow-ups, give or take politeness and punctuation. */
export function isShortFollowUp(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']/gu, ' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  while (words[0] === 'please') words.shift();
  while (words.length > 0 && ['please', 'thanks', 'thank', 'you', 'now'].includes(words[words.length - 1])) words.pop();
  return SHORT_FOLLOW_UPS.has(words.join(' '));
}

/** The stored form (JSON), and back; an unreadable value reads as null (today's rule). */
export function serializeRoute(route: RoutedTo): string {
  return JSON.stringify(route);
}
export function parseRoute(json: string | null): RoutedTo | null {
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as RoutedTo;
    if (value.to === 'nobody') return value;
    if (value.to === 'everyone' && Array.isArray(value.agents)) return value;
    if (value.to === 'agent' && typeof value.agent === 'string') return value;
  } catch {
    // fall through
  }
  return null;
}

/**
 * The agent the person was talking with: the newest person message of the window that woke
 * someone decides. It names that agent when it woke exactly one agent, or when exactly one
 * agent answered it (before the person's next message); otherwise nobody is the partner.
 * Person messages that woke nobody are passed over (a person thinking aloud).
 */
function conversationPartner(facts: RoomFacts): string | null {
  const answered = new Set<string>();
  for (const message of facts.recent.slice(0, PARTNER_WINDOW_MESSAGES)) {
    if (message.source === 'agent' && message.kind === 'message' && message.publisherAgentKey) {
      answered.add(message.publisherAgentKey);
      continue;
    }
    if (message.source !== 'human' || message.kind !== 'message') continue;
    const woke = wokenBy(message, facts.agents);
    if (woke !== null && woke.length === 0) {
      answered.clear();
      continue;
    }
    const partner = woke !== null && woke.length === 1 ? woke[0] : answered.size === 1 ? [...answered][0] : null;
    return partner !== null && facts.agents.some((a) => a.agentKey === partner) ? partner : null;
  }
  return null;
}

/** The agents a person's message woke, as far as the stored facts tell; null when they do not (a thread, an old row). */
function wokenBy(message: RecentMessage, agents: readonly RoomAgent[]): readonly string[] | null {
  if (mentionsBroadcast(message.text)) return agents.filter((a) => a.member).map((a) => a.agentKey);
  const named = mentionedAgents(message.text, agents);
  if (named.length > 0) return named.map((a) => a.agentKey);
  if (message.replyToAgentKey !== null) return [message.replyToAgentKey];
  const route = message.routedTo;
  if (route === null) return null;
  return route.to === 'everyone' ? route.agents : route.to === 'agent' ? [route.agent] : [];
}

/** The room's agents `text` mentions by name. */
export function mentionedAgents(text: string, agents: readonly RoomAgent[]): RoomAgent[] {
  const handles = new Set(extractMentions(text).map(normalizeHandle));
  return agents.filter((a) => a.handle !== '' && handles.has(a.handle));
}

/** True when `text` mentions @all, @here, @everyone or @agents. */
export function mentionsBroadcast(text: string): boolean {
  return extractMentions(text).some((m) => BROADCAST_HANDLES.has(normalizeHandle(m)));
}
