// The composer's "→ …" (issue 34): whom a draft would wake, and how, from the very rules the post
// applies on the room as it is now: the untagged rule (untagged.ts) and the @all turn order
// (broadcastTurns.ts). The renderer only words the answer.
import type { WakePreview } from '../../../shared/model/messages';
import { turnOrderOfPost, type ReplyToAll } from './broadcastTurns';
import { decideUntagged, mentionedAgents, mentionsBroadcast, previewOfRoute, type Draft, type RoomFacts } from './untagged';

export function previewWake(draft: Draft, facts: RoomFacts, mode: ReplyToAll): WakePreview {
  const nameOf = (key: string) => facts.agents.find((a) => a.agentKey === key)?.name ?? key;
  // Routing reads a broadcast before a reply or thread: an @all in a thread reaches everyone (in turn too).
  if (mentionsBroadcast(draft.text)) {
    const members = facts.agents.filter((a) => a.member);
    // The order's set of agents does not depend on the message's number (only its rotation does).
    const order = turnOrderOfPost(0, draft.text, facts.agents, mode);
    if (order === null) return { to: 'everyone', names: members.map((a) => a.name), count: members.length, why: 'broadcast' };
    const atOnce = members.filter((a) => !order.includes(a.agentKey)).map((a) => a.name);
    return { to: 'everyone', names: order.map(nameOf), count: order.length, why: 'in_turn', ...(atOnce.length > 0 ? { atOnce } : {}) };
  }
  if (draft.threadRootNumber !== null || draft.replyToNumber !== null) return { to: 'thread', names: [], count: 0 };
  const named = mentionedAgents(draft.text, facts.agents);
  if (named.length > 0) return { to: 'agents', names: named.map((a) => a.name), count: named.length, why: 'mention' };
  return previewOfRoute(decideUntagged(draft.text, facts), nameOf);
}
