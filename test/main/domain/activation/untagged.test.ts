// The untagged-message rule (issue 34 item 1), row by row: small room, the agent the person was
// talking with (30-minute and 50-message bounds), a short follow-up to the one task holder, nobody.
import { describe, expect, it } from 'vitest';
import {
  decideUntagged, isShortFollowUp, namesNobody, parseRoute, routeOfPost, serializeRoute,
  type RecentMessage, type RoomAgent, type RoomFacts,
} from '../../../../src/main/domain/activation/untagged';
import { turnOrderOfPost, type ReplyToAll } from '../../../../src/main/domain/activation/broadcastTurns';
import { previewWake } from '../../../../src/main/domain/activation/wakePreview';

const agent = (name: string, member = true): RoomAgent => ({ agentKey: `key_${name.toLowerCase()}`, handle: name.toLowerCase(), name, member });
const FOUR = [agent('Cedar'), agent('Birch'), agent('Aspen'), agent('Rowan')];
const person = (text: string, over: Partial<RecentMessage> = {}): RecentMessage => ({ source: 'human', kind: 'message', text, publisherAgentKey: null, replyToAgentKey: null, routedTo: null, ...over });
const answer = (name: string): RecentMessage => ({ source: 'agent', kind: 'message', text: 'sure', publisherAgentKey: `key_${name.toLowerCase()}`, replyToAgentKey: null, routedTo: null });
const facts = (over: Partial<RoomFacts> = {}): RoomFacts => ({ agents: FOUR, recent: [], leaseHolders: [], ...over });
const draft = (text: string) => ({ text, replyToNumber: null, threadRootNumber: null });

describe('whom a person message that names nobody wakes', () => {
  it('wakes every member in a room of at most two agents (offline non-managed agents do not count)', () => {
    const two = [agent('Cedar'), agent('Birch'), agent('Aspen', false)];
    expect(decideUntagged('and the tests?', facts({ agents: two }))).toEqual({ to: 'everyone', agents: ['key_cedar', 'key_birch'] });
    expect(decideUntagged('hello', facts({ agents: [agent('Cedar')] }))).toEqual({ to: 'everyone', agents: ['key_cedar'] });
  });

  it('wakes the agent the person just talked with: the newest person message woke exactly one', () => {
    // Newest first: Cedar answered "@Cedar fix the login test".
    const recent = [answer('Cedar'), person('@Cedar fix the login test')];
    expect(decideUntagged('and the tests?', facts({ recent }))).toEqual({ to: 'agent', agent: 'key_cedar', why: 'partner' });
  });

  it('wakes the one agent that answered, when the person message woke several', () => {
    const recent = [answer('Birch'), person('@Cedar @Birch who knows CSS?')];
    expect(decideUntagged('go on', facts({ recent }))).toEqual({ to: 'agent', agent: 'key_birch', why: 'partner' });
  });

  it('has no partner when several agents answered the newest person message', () => {
    const recent = [answer('Birch'), answer('Cedar'), person('@all who can look?'), answer('Aspen'), person('@Aspen hi')];
    expect(decideUntagged('and the tests?', facts({ recent }))).toEqual({ to: 'nobody' });
  });

  it('passes over person messages that woke nobody, back to the last conversation', () => {
    const recent = [person('hmm', { routedTo: { to: 'nobody' } }), answer('Rowan'), person('@Rowan deploy?')];
    expect(decideUntagged('and staging?', facts({ recent }))).toEqual({ to: 'agent', agent: 'key_rowan', why: 'partner' });
  });

  it('follows a stored decision: an untagged message routed to one agent keeps the conversation there', () => {
    const recent = [person('and the tests?', { routedTo: { to: 'agent', agent: 'key_cedar', why: 'partner' } })];
    expect(decideUntagged('and the docs?', facts({ recent }))).toEqual({ to: 'agent', agent: 'key_cedar', why: 'partner' });
  });

  it('counts a reply to an agent message as talking with that agent', () => {
    const recent = [person('why?', { replyToAgentKey: 'key_aspen' })];
    expect(decideUntagged('and then?', facts({ recent }))).toEqual({ to: 'agent', agent: 'key_aspen', why: 'partner' });
  });

  it('looks back at most 50 messages: a conversation 50 messages ago is over', () => {
    const event: RecentMessage = { source: 'system', kind: 'event', text: 'task_1 moved', publisherAgentKey: null, replyToAgentKey: null, routedTo: null };
    const within = [...Array.from({ length: 49 }, () => event), person('@Cedar hi')];
    expect(decideUntagged('more?', facts({ recent: within }))).toEqual({ to: 'agent', agent: 'key_cedar', why: 'partner' });
    const beyond = [...Array.from({ length: 50 }, () => event), person('@Cedar hi')];
    expect(decideUntagged('more?', facts({ recent: beyond }))).toEqual({ to: 'nobody' });
  });

  it('forgets a partner that left the room', () => {
    const recent = [answer('Elm'), person('@Elm hi')];
    expect(decideUntagged('and?', facts({ recent }))).toEqual({ to: 'nobody' });
  });

  it('sends a short follow-up to the one agent holding a work lease when no conversation decides', () => {
    expect(decideUntagged('try again', facts({ leaseHolders: ['key_aspen'] }))).toEqual({ to: 'agent', agent: 'key_aspen', why: 'follow_up' });
    expect(decideUntagged('Please merge it!', facts({ leaseHolders: ['key_aspen'] }))).toEqual({ to: 'agent', agent: 'key_aspen', why: 'follow_up' });
    // Two holders: nobody can tell which one is meant.
    expect(decideUntagged('try again', facts({ leaseHolders: ['key_aspen', 'key_cedar'] }))).toEqual({ to: 'nobody' });
    // Not a follow-up: a new question is not "try again".
    expect(decideUntagged('what about the release notes?', facts({ leaseHolders: ['key_aspen'] }))).toEqual({ to: 'nobody' });
  });

  it('wakes nobody otherwise', () => {
    expect(decideUntagged('who knows the build?', facts())).toEqual({ to: 'nobody' });
  });

  it('decides only for messages that name nobody: mentions, broadcasts, replies and threads keep their rows', () => {
    expect(namesNobody(draft('@Cedar hi'), FOUR)).toBe(false);
    expect(namesNobody(draft('@all hi'), FOUR)).toBe(false);
    expect(namesNobody({ text: 'hi', replyToNumber: 3, threadRootNumber: null }, FOUR)).toBe(false);
    expect(namesNobody({ text: 'hi', replyToNumber: null, threadRootNumber: 3 }, FOUR)).toBe(false);
    // A mention of someone not an agent of the room (a person) names no agent.
    expect(namesNobody(draft('@Ada what do you think?'), FOUR)).toBe(true);
    expect(routeOfPost(draft('@Cedar hi'), facts())).toBeNull();
  });

  it('knows the short follow-ups, and no longer sentences', () => {
    for (const t of ['try again', 'Go ahead.', 'open a PR', 'merge it please', 'push it', 'Looks good!', 'LGTM', 'ok thanks']) expect(isShortFollowUp(t)).toBe(true);
    for (const t of ['try again with the other flag and log it', 'tests?', 'no', 'merge the other one']) expect(isShortFollowUp(t)).toBe(false);
  });

  it('stores and reads back its decision; an unreadable value reads as none', () => {
    const route = { to: 'agent', agent: 'key_cedar', why: 'partner' } as const;
    expect(parseRoute(serializeRoute(route))).toEqual(route);
    expect(parseRoute('{"to":"moon"}')).toBeNull();
    expect(parseRoute('not json')).toBeNull();
  });

  it('previews the draft from the same rule: "→ Cedar", "→ everyone (2 agents)", "→ nobody"', () => {
    const recent = [answer('Cedar'), person('@Cedar fix it')];
    expect(previewWake(draft('and the tests?'), facts({ recent }), 'in_turn')).toEqual({ to: 'agents', names: ['Cedar'], count: 1, why: 'partner' });
    expect(previewWake(draft('hi'), facts({ agents: FOUR.slice(0, 2) }), 'in_turn')).toEqual({ to: 'everyone', names: ['Cedar', 'Birch'], count: 2, why: 'small_room' });
    expect(previewWake(draft('hi'), facts(), 'in_turn')).toEqual({ to: 'nobody', names: [], count: 0, why: 'nobody' });
    expect(previewWake(draft('@Birch @Aspen look'), facts(), 'in_turn')).toEqual({ to: 'agents', names: ['Birch', 'Aspen'], count: 2, why: 'mention' });
    expect(previewWake(draft('@all look'), facts(), 'all_at_once')).toMatchObject({ to: 'everyone', count: 4, why: 'broadcast' });
    expect(previewWake(draft('@all look'), facts(), 'in_turn')).toEqual({ to: 'everyone', names: ['Aspen', 'Birch', 'Cedar', 'Rowan'], count: 4, why: 'in_turn' });
    expect(previewWake(draft('@all @Cedar look'), facts(), 'in_turn')).toEqual({ to: 'everyone', names: ['Aspen', 'Birch', 'Rowan'], count: 3, why: 'in_turn', atOnce: ['Cedar'] });
    // In a thread as at the top: routing reads the broadcast first.
    expect(previewWake({ text: '@all look', replyToNumber: null, threadRootNumber: 3 }, facts(), 'in_turn')).toMatchObject({ to: 'everyone', count: 4, why: 'in_turn' });
    expect(previewWake({ text: 'look', replyToNumber: 3, threadRootNumber: null }, facts(), 'in_turn')).toEqual({ to: 'thread', names: [], count: 0 });
  });

  // Issue 34: the composer's preview and what the post stores agree, on a table of cases.
  it("previews an @all in turn exactly when the post takes turns, with the post's agents", () => {
    const nine = 'ABCDEFGHI'.split('').map((l) => agent(`Agent${l}`));
    const rooms = { one: FOUR.slice(0, 1), two: FOUR.slice(0, 2), four: FOUR, away: [agent('Cedar'), agent('Birch', false), agent('Aspen')], eight: nine.slice(0, 8), nine };
    const texts = ['@all look', '@everyone hi', '@here @Cedar look', '@agents @Cedar @Birch look', '@Cedar look', 'look', '@all @AgentA'];
    for (const [roomName, agents] of Object.entries(rooms)) {
      for (const text of texts) {
        for (const mode of ['in_turn', 'all_at_once'] as ReplyToAll[]) {
          const preview = previewWake(draft(text), facts({ agents }), mode);
          const order = turnOrderOfPost(7, text, agents, mode);
          const what = `${roomName} / ${text} / ${mode}`;
          expect(preview.why === 'in_turn', what).toBe(order !== null);
          if (order !== null) expect([preview.count, [...preview.names].sort()], what).toEqual([order.length, order.map((k) => agents.find((a) => a.agentKey === k)!.name).sort()]);
        }
      }
    }
  });
});
