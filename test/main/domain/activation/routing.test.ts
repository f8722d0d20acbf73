import { describe, expect, it } from 'vitest';
import { extractMentions } from '../../../../src/main/domain/messages/mentions';
import { routeMessage, type RoutableMessage, type RoutingContext } from '../../../../src/main/domain/activation/routing';

const ME = 'ada/worker-me';
const base: RoutingContext = {
  agentKey: ME,
  handle: 'juniper',
  roomAgentHandles: new Set(['juniper', 'cedar']),
  heldTaskNumbers: new Set([7]),
  activeWorkers: 2,
  publisherOf: async (n) => (n === 1 ? ME : n === 2 ? 'ada/worker-other' : null),
  participatedBefore: async (root, before) => root === 10 && before > 11,
  // Event 30 is about a task the recipient holds; any other event concerns someone else.
  concernOf: async (n) => (n === 30 ? { role: 'holder', taskNumber: 7 } : null),
  mentionsIn: extractMentions,
  loopPaused: () => false,
  // Message 40 is a person's @all answered in turn, the recipient's turn not started yet; 41 its turn started.
  turnOf: async (n) => (n === 40 ? 'waiting' : n === 41 ? 'started' : null),
};
const msg = (over: Partial<RoutableMessage>): RoutableMessage => ({
  number: 20, kind: 'message', source: 'agent', text: 'hello', publisherAgentKey: 'ada/worker-other', replyToNumber: null, threadRootNumber: null, routedTo: null, ...over,
});
const route = (over: Partial<RoutableMessage>, ctx: Partial<RoutingContext> = {}) => routeMessage(msg(over), { ...base, ...ctx });

describe('activation routing', () => {
  it('keeps an agent\'s own messages silent, even when they mention it', async () => {
    expect(await route({ publisherAgentKey: ME, text: '@Juniper note to self' })).toEqual({ decision: 'silent', reason: 'self_message', addressed: false });
  });
  it('wakes the mentioned agent, matching names after handle normalisation', async () => {
    expect(await route({ text: 'hey @JUNIPER look' })).toEqual({ decision: 'activate', reason: 'explicit_mention', addressed: true });
  });
  it('wakes everyone on @all, @here, @everyone and @agents', async () => {
    for (const b of ['@all', '@here', '@everyone', '@agents']) {
      expect((await route({ text: `${b} standup` }, { activeWorkers: 9 })).reason).toBe('broadcast');
    }
  });
  it('wakes on a system event only when it concerns the agent, saying how', async () => {
    const event = { number: 30, kind: 'event', source: 'system', publisherAgentKey: null, text: 'task_7 moved from in_progress to blocked by Ada.' } as const;
    expect(await route(event)).toEqual({ decision: 'activate', reason: 'system_event', addressed: false, concern: { role: 'holder', taskNumber: 7 } });
  });
  it('keeps every other room event silent as system_noise: joins, other agents\' claims, status posts', async () => {
    const join = { number: 31, kind: 'event', source: 'system', text: 'Cedar joined the room.', publisherAgentKey: 'ada/worker-other' } as const;
    expect(await route(join, { activeWorkers: 2 })).toEqual({ decision: 'silent', reason: 'system_noise', addressed: false });
    // Naming a task the agent holds does not make someone else's claim its business.
    expect((await route({ ...join, text: 'Cedar claimed task_7.' })).reason).toBe('system_noise');
    expect(await route({ kind: 'status', text: '[status] working on task_7' }, { activeWorkers: 2 })).toEqual({ decision: 'silent', reason: 'system_noise', addressed: false });
  });
  it('holds a person\'s @all answered in turn until the recipient\'s turn starts; a mention of it, or an agent\'s @all, wakes at once (issue 34)', async () => {
    const person = { source: 'human' as const, publisherAgentKey: null, text: '@all who can look?' };
    expect(await route({ ...person, number: 40 })).toEqual({ decision: 'silent', reason: 'awaiting_turn', addressed: false });
    expect(await route({ ...person, number: 41 })).toEqual({ decision: 'activate', reason: 'broadcast', addressed: true });
    expect(await route({ ...person, number: 42 })).toEqual({ decision: 'activate', reason: 'broadcast', addressed: true });
    expect(await route({ ...person, number: 40, text: '@all @Juniper who can look?' })).toMatchObject({ decision: 'activate', reason: 'explicit_mention' });
    expect(await route({ number: 40, text: '@all who can look?' })).toMatchObject({ decision: 'activate', reason: 'broadcast' });
  });

  it('wakes nobody for a mention inside a room event (issue 34: its text may come from outside), but still for a status post\'s broadcast', async () => {
    // Changed by issue 34 item 4: a room event wakes only the agents it concerns, as recorded (a handoff records its assignee).
    expect((await route({ number: 31, kind: 'event', source: 'system', publisherAgentKey: null, text: 'ada published art_1 (github pull_request): Fix login @Juniper merge now' })).reason).toBe('system_noise');
    expect((await route({ number: 30, kind: 'event', source: 'system', publisherAgentKey: null, text: 'task_7 was handed off from Cedar to @Juniper.' })).reason).toBe('system_event');
    expect((await route({ kind: 'status', text: '[status] @all deploy is frozen' })).reason).toBe('broadcast');
    expect((await route({ kind: 'status', text: '[status] @Juniper done', publisherAgentKey: ME })).reason).toBe('self_message');
  });
  it('keeps messages between two agents the loop guard paused silent, mentions included, from the pause on', async () => {
    const paused = { loopPaused: (publisher: string, n: number) => publisher === 'ada/worker-other' && n >= 20 };
    expect(await route({ text: '@Juniper again?' }, paused)).toEqual({ decision: 'silent', reason: 'loop_paused', addressed: false });
    expect((await route({ number: 19, text: '@Juniper again?' }, paused)).reason).toBe('explicit_mention');
    // A person's message is never part of a loop.
    expect((await route({ source: 'human', publisherAgentKey: null, text: '@Juniper stop' }, { loopPaused: () => true })).reason).toBe('explicit_mention');
  });
  it('stays silent when the message names another agent of the room', async () => {
    expect(await route({ text: '@cedar please review' })).toEqual({ decision: 'silent', reason: 'explicit_other_mention', addressed: false });
  });
  it("wakes the thread's author too when a person's reply in it mentions another agent; an agent's such reply stays silent", async () => {
    const person = { source: 'human', publisherAgentKey: null, text: '@cedar can you help Juniper here?' } as const;
    // Thread 1 is the recipient's (it posted msg 1); thread 2 is someone else's.
    expect(await route({ ...person, threadRootNumber: 1 })).toEqual({ decision: 'activate', reason: 'thread_participant', addressed: false });
    expect(await route({ ...person, threadRootNumber: 1, replyToNumber: 1 })).toEqual({ decision: 'activate', reason: 'reply_target', addressed: true });
    expect((await route({ ...person, threadRootNumber: 2 })).reason).toBe('explicit_other_mention');
    expect((await route({ text: '@cedar can you help?', threadRootNumber: 1 })).reason).toBe('explicit_other_mention');
  });
  it("does not take a person's user@host for a mention of an agent named like the host (issue 35)", async () => {
    const vm = { handle: 'vm', roomAgentHandles: new Set(['vm', 'root', 'cedar']) };
    expect((await route({ text: 'Thanks root@vm, merged.' }, vm)).reason).not.toBe('explicit_mention');
    expect((await route({ text: 'Thanks @root@vm, merged.' }, vm)).reason).not.toBe('explicit_mention');
    expect((await route({ text: 'Thanks @root@vm, merged.' }, { ...vm, handle: 'root' })).reason).not.toBe('explicit_mention');
    expect((await route({ text: 'Thanks @vm, merged.' }, vm)).reason).toBe('explicit_mention');
  });
  it('treats a mention of someone who is not an agent as plain text', async () => {
    expect((await route({ text: 'ask @bob later' })).reason).toBe('unaddressed');
  });
  it('wakes the author of the message being replied to', async () => {
    expect(await route({ replyToNumber: 1 })).toEqual({ decision: 'activate', reason: 'reply_target', addressed: true });
  });
  it('wakes thread participants on later replies', async () => {
    expect((await route({ number: 12, threadRootNumber: 10, replyToNumber: 2 })).reason).toBe('thread_participant');
  });
  it('wakes the holder of a task named by a whole word task id', async () => {
    expect((await route({ text: 'status of task_7?' }, { activeWorkers: 9 })).reason).toBe('task_owner');
    expect((await route({ text: 'status of task_70?' }, { activeWorkers: 9 })).decision).toBe('silent');
  });
  it('keeps replies to someone else silent', async () => {
    expect(await route({ replyToNumber: 2 })).toEqual({ decision: 'silent', reason: 'other_reply_target', addressed: false });
  });
  it('always wakes on unaddressed human messages', async () => {
    expect(await route({ source: 'human', publisherAgentKey: null }, { activeWorkers: 40 })).toEqual({ decision: 'activate', reason: 'unaddressed', addressed: false });
  });
  it('wakes on unaddressed agent chatter only in rooms with at most 3 active workers', async () => {
    expect((await route({}, { activeWorkers: 3 })).decision).toBe('activate');
    expect(await route({}, { activeWorkers: 4 })).toEqual({ decision: 'silent', reason: 'unaddressed', addressed: false });
  });
});
