// The @all-in-turn rule (issue 34 item 2), case by case: the order (rotation, fairness, the 2..8
// bound, agents named beside @all), and whose turn it is (each way a turn ends, the wait bound,
// away agents, an agent overtaken once a later one was handed the broadcast), and what a
// recorded going-away does to the next agent's deadline, stable as time passes.
import { describe, expect, it } from 'vitest';
import { isReplyToAll, turnOrder, turnOrderOfPost, turnStarted, turnState, type TurnFacts } from '../../../../src/main/domain/activation/broadcastTurns';
import type { RoomAgent } from '../../../../src/main/domain/activation/untagged';

const agent = (name: string, member = true): RoomAgent => ({ agentKey: `key_${name.toLowerCase()}`, handle: name.toLowerCase(), name, member });
const FOUR = [agent('Cedar'), agent('Birch'), agent('Aspen'), agent('Rowan')];
const T0 = '2026-12-06T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const WAIT = 90_000;
const ORDER = ['a', 'b', 'c', 'd'];
const idle: TurnFacts = { answeredAt: null, passedAt: null, awayAt: null, away: false, handedAt: null };
const factsOf = (over: Record<string, Partial<TurnFacts>> = {}) => new Map(ORDER.map((k) => [k, { ...idle, ...over[k] }]));
const stateAt = (seconds: number, over: Record<string, Partial<TurnFacts>> = {}) => turnState(ORDER, factsOf(over), T0, new Date(at(seconds)), WAIT);
const steps = (state: ReturnType<typeof turnState>) => state.positions.map((p) => p.state);

describe('the turn order of a broadcast', () => {
  it('sorts the agents and rotates by the message number', () => {
    expect(turnOrder(4, ['c', 'a', 'b'])).toEqual(['b', 'c', 'a']);
    expect(turnOrder(5, ['c', 'a', 'b'])).toEqual(['c', 'a', 'b']);
    expect(turnOrder(6, ['b', 'c', 'a'])).toEqual(['a', 'b', 'c']);
  });

  it('is fair: over n consecutive broadcasts each agent goes first once and takes every place once', () => {
    const keys = ['e', 'a', 'd', 'b', 'c'];
    const orders = [10, 11, 12, 13, 14].map((n) => turnOrder(n, keys)!);
    expect(new Set(orders.map((o) => o[0])).size).toBe(5);
    for (const key of keys) expect(new Set(orders.map((o) => o.indexOf(key))).size).toBe(5);
  });

  it('takes turns with 2 to 8 agents only: 1 or 9 answer at once, as before', () => {
    expect(turnOrder(1, ['a'])).toBeNull();
    expect(turnOrder(1, ['a', 'b'])).toEqual(['b', 'a']);
    expect(turnOrder(1, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'])).toHaveLength(8);
    expect(turnOrder(1, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'])).toBeNull();
  });

  it('a person\'s @all takes turns among the member agents; named agents answer at once; other messages and all_at_once rooms take none', () => {
    expect(turnOrderOfPost(8, '@all who can look at the flaky test?', FOUR, 'in_turn')).toEqual(['key_aspen', 'key_birch', 'key_cedar', 'key_rowan']);
    expect(turnOrderOfPost(8, '@all who can look?', [...FOUR, agent('Oak', false)], 'in_turn')).toHaveLength(4);
    expect(turnOrderOfPost(8, '@all @Cedar who can look?', FOUR, 'in_turn')).toEqual(['key_rowan', 'key_aspen', 'key_birch']);
    expect(turnOrderOfPost(8, '@all @Cedar @Birch @Aspen look', FOUR, 'in_turn')).toBeNull();
    expect(turnOrderOfPost(8, '@all who can look?', FOUR, 'all_at_once')).toBeNull();
    expect(turnOrderOfPost(8, '@Cedar who can look?', FOUR, 'in_turn')).toBeNull();
    expect(turnOrderOfPost(8, '@all who can look?', [agent('Cedar')], 'in_turn')).toBeNull();
  });

  it('knows the two modes and nothing else', () => {
    expect(isReplyToAll('in_turn')).toBe(true);
    expect(isReplyToAll('all_at_once')).toBe(true);
    expect(isReplyToAll('sometimes')).toBe(false);
  });
});

describe('whose turn it is', () => {
  it('starts with the first agent; the others wait; the turn ends at the latest after the wait', () => {
    const state = stateAt(10);
    expect(steps(state)).toEqual(['turn', 'waiting', 'waiting', 'waiting']);
    expect(state).toMatchObject({ current: 'a', deadline: at(90) });
    expect(turnStarted(state, 'a')).toBe(true);
    expect(turnStarted(state, 'b')).toBe(false);
    expect(turnStarted(state, 'z')).toBe(false);
  });

  it('moves on when an agent answers, passes, or its wait runs out, each next turn starting when the last ended', () => {
    const state = stateAt(200, { a: { answeredAt: at(20) }, b: { passedAt: at(30) } });
    expect(steps(state)).toEqual(['answered', 'passed', 'timed_out', 'turn']);
    expect(state.positions.map((p) => p.startedAt)).toEqual([T0, at(20), at(30), at(120)]);
    expect(state).toMatchObject({ current: 'd', deadline: at(210) });
  });

  it('an answer after the wait ran out does not take the time back', () => {
    expect(steps(stateAt(100, { a: { answeredAt: at(95) } }))).toEqual(['timed_out', 'turn', 'waiting', 'waiting']);
  });

  it('an agent that answered or passed before its turn came is done as its turn starts', () => {
    const state = stateAt(25, { a: { answeredAt: at(20) }, b: { answeredAt: at(5) }, c: { passedAt: at(1) } });
    expect(steps(state)).toEqual(['answered', 'answered', 'passed', 'turn']);
    expect(state.positions[3].startedAt).toBe(at(20));
  });

  it('skips an agent that went away, unless it already answered', () => {
    expect(steps(stateAt(10, { a: { away: true }, b: { away: true, answeredAt: at(5) } }))).toEqual(['away', 'answered', 'turn', 'waiting']);
  });

  it('ends the round when every turn ended', () => {
    const state = stateAt(500);
    expect(steps(state)).toEqual(['timed_out', 'timed_out', 'timed_out', 'timed_out']);
    expect(state).toMatchObject({ current: null, deadline: null });
  });

  it('once a later agent was handed the broadcast, an earlier one back online does not take the turn back', () => {
    // a was away when b was handed it; a is back now.
    expect(steps(stateAt(10, { b: { handedAt: at(1) } }))).toEqual(['away', 'turn', 'waiting', 'waiting']);
  });
});

describe('an agent away from its turn', () => {
  it('away when its turn came (paused all along) went away, not ran out of time, however long it stays away', () => {
    for (const seconds of [10, 95, 150]) {
      const state = stateAt(seconds, { a: { away: true } });
      expect(steps(state), `at ${seconds} s`).toEqual(['away', ...(seconds < 90 ? ['turn', 'waiting'] : ['timed_out', 'turn']), 'waiting']);
      // b's turn started when a's came (a was away then), so its deadline is 90 s after that, not after a's 90 s.
      expect(state.positions[1].startedAt).toBe(T0);
    }
    expect(stateAt(10, { a: { away: true } }).deadline).toBe(at(90));
  });

  it('going away mid-turn (recorded) ends the turn then: the next deadline is 90 s from then, before and after the away agent\'s own 90 s', () => {
    const wentAt = { a: { handedAt: at(1), awayAt: at(60), away: true } };
    for (const seconds of [61, 89, 91, 149]) {
      const state = stateAt(seconds, wentAt);
      expect(steps(state), `at ${seconds} s`).toEqual(['away', 'turn', 'waiting', 'waiting']);
      expect(state.positions[0].endedAt).toBe(at(60));
      expect(state, `at ${seconds} s`).toMatchObject({ current: 'b', deadline: at(150) });
    }
    // Back online later changes nothing: the row says when it went.
    expect(stateAt(120, { a: { handedAt: at(1), awayAt: at(60) } })).toMatchObject({ current: 'b', deadline: at(150) });
  });

  it('recorded away before its turn came: skipped as its turn starts, even once back', () => {
    const state = stateAt(40, { a: { answeredAt: at(30) }, b: { awayAt: at(5) } });
    expect(steps(state)).toEqual(['answered', 'away', 'turn', 'waiting']);
    expect(state).toMatchObject({ current: 'c', deadline: at(120) });
  });

  it('handed its turn and away now but not recorded yet: its turn waits for the record (or its deadline) rather than ending at its start', () => {
    expect(stateAt(30, { a: { handedAt: at(1), away: true } })).toMatchObject({ current: 'a', deadline: at(90) });
    expect(steps(stateAt(100, { a: { handedAt: at(1), away: true } }))).toEqual(['timed_out', 'turn', 'waiting', 'waiting']);
  });

  it('a turn that ran out stays "ran out of time" when the agent is recorded away after it', () => {
    expect(steps(stateAt(130, { a: { awayAt: at(120), away: true } }))).toEqual(['timed_out', 'turn', 'waiting', 'waiting']);
  });

  it('what the agent did first ends its turn: an answer before it went away stays an answer', () => {
    expect(steps(stateAt(50, { a: { handedAt: at(1), answeredAt: at(20), awayAt: at(40), away: true } }))).toEqual(['answered', 'turn', 'waiting', 'waiting']);
    expect(steps(stateAt(50, { a: { handedAt: at(1), answeredAt: at(45), awayAt: at(40), away: true } }))).toEqual(['away', 'turn', 'waiting', 'waiting']);
  });
});
