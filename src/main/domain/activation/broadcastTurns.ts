// A person's @all answered one agent at a time (issue 34 item 2): one pure rule. The order is
// decided once when the broadcast is posted (turnOrder, stored in broadcast_turns); whose turn it
// is follows from what the agents did since (turnState), read wherever a wait, a push or a
// managed turn is decided, so every machine of a team agrees.
import { normalizeHandle } from '../identity/handles';
import { BROADCAST_HANDLES, extractMentions } from '../messages/mentions';
import type { RoomAgent } from './untagged';

/** How a room's broadcasts are answered: one agent at a time (the default), or all at once (before issue 34). */
export type ReplyToAll = 'in_turn' | 'all_at_once';
export const REPLY_TO_ALL_MODES: readonly ReplyToAll[] = ['in_turn', 'all_at_once'];
export const isReplyToAll = (value: unknown): value is ReplyToAll => REPLY_TO_ALL_MODES.includes(value as ReplyToAll);
/** A stored setting as the app reads it: anything it does not know (a newer app's value) reads as the default. */
export const replyToAllOf = (stored: string | null | undefined): ReplyToAll => (stored === 'all_at_once' ? 'all_at_once' : 'in_turn');

/** How long one agent's turn lasts when it neither answers nor passes; services may shorten it (tests). */
export const TURN_WAIT_MS = 90_000;
/** Rooms of this many member agents take turns; fewer or more answer at once, as before. */
export const MIN_TURN_AGENTS = 2;
export const MAX_TURN_AGENTS = 8;

/**
 * The order of a broadcast's turns: the member agents' keys sorted, then rotated by the
 * message number, so each agent is first as often as the others over consecutive broadcasts.
 * Null (everyone at once) outside 2 to 8 agents.
 */
export function turnOrder(messageNumber: number, memberAgentKeys: readonly string[]): string[] | null {
  const keys = [...new Set(memberAgentKeys)].sort();
  if (keys.length < MIN_TURN_AGENTS || keys.length > MAX_TURN_AGENTS) return null;
  const start = messageNumber % keys.length;
  return [...keys.slice(start), ...keys.slice(0, start)];
}

/**
 * The turn order of a person's message as posted, or null when it takes no turns: it does not
 * mention a broadcast handle, the room answers all at once, or it has not 2 to 8 member agents.
 * Agents the message also names ("@all @Cedar …") are woken at once and left out of the order;
 * when fewer than two remain, nobody waits.
 */
export function turnOrderOfPost(messageNumber: number, text: string, agents: readonly RoomAgent[], mode: ReplyToAll): string[] | null {
  if (mode !== 'in_turn') return null;
  const mentions = new Set(extractMentions(text).map(normalizeHandle));
  if (![...mentions].some((m) => BROADCAST_HANDLES.has(m))) return null;
  const members = agents.filter((a) => a.member);
  if (members.length < MIN_TURN_AGENTS || members.length > MAX_TURN_AGENTS) return null;
  const order = turnOrder(messageNumber, members.filter((a) => a.handle === '' || !mentions.has(a.handle)).map((a) => a.agentKey));
  return order !== null && order.length >= MIN_TURN_AGENTS ? order : null;
}

/** What one agent of the order did since the broadcast, as the store and presence tell. */
export interface TurnFacts {
  /** When it first posted a room message after the broadcast; null when it has not. */
  readonly answeredAt: string | null;
  /** When it passed (its no_replies row for the broadcast); null when it has not. */
  readonly passedAt: string | null;
  /**
   * When it was recorded away from the broadcast (a no_replies row of reason `away`: it went
   * offline or was paused while its turn was open or still to come); null when it was not.
   */
  readonly awayAt: string | null;
  /** Not a member of the room now (session ended, offline and not managed, a managed agent paused or held). */
  readonly away: boolean;
  /** When its wait was handed the broadcast; null when not yet. */
  readonly handedAt: string | null;
}

export type TurnOutcome = 'answered' | 'passed' | 'away' | 'timed_out';
export type TurnStep = TurnOutcome | 'turn' | 'waiting';

export interface TurnPosition {
  readonly agentKey: string;
  readonly state: TurnStep;
  /** When its turn started; null while waiting. */
  readonly startedAt: string | null;
  /** When its turn ended; null while it is its turn or waiting. */
  readonly endedAt: string | null;
}

export interface TurnState {
  readonly positions: readonly TurnPosition[];
  /** Whose turn it is now; null once every agent's turn ended. */
  readonly current: string | null;
  /** When the current turn ends at the latest (its 90 s); null when no turn is open. */
  readonly deadline: string | null;
}

/**
 * Whose turn it is at `now`. Agent k's turn starts when the one before ended: it answered,
 * passed, went away, or its `turnWaitMs` ran out (the first agent's starts at `postedAt`). An
 * agent that answered, passed or was recorded away before its turn came ends it as it starts.
 * Going away is read from stored rows so every machine agrees and nothing changes as time
 * passes: the app that sees an agent go (its connection's grace ran out, a person paused it)
 * records when, and its turn ends then. An agent away now that was never handed the broadcast
 * nor recorded (away when its turn came) is skipped at its turn's start, however long it stays
 * away: it did not run out of time. One away now but handed its turn waits for that record
 * (or its deadline). Once a later agent was handed the broadcast, the turns before it are over
 * (they read as away when still open), so an agent coming back never takes the turn back.
 */
export function turnState(order: readonly string[], facts: ReadonlyMap<string, TurnFacts>, postedAt: string, now: Date, turnWaitMs: number): TurnState {
  const positions: TurnPosition[] = [];
  const lastHanded = lastIndexWhere(order, (key) => facts.get(key)?.handedAt != null);
  let start = Date.parse(postedAt);
  let current: string | null = null;
  let deadline: string | null = null;
  for (const [index, agentKey] of order.entries()) {
    const fact = facts.get(agentKey) ?? { answeredAt: null, passedAt: null, awayAt: null, away: true, handedAt: null };
    if (current !== null) {
      positions.push({ agentKey, state: 'waiting', startedAt: null, endedAt: null });
      continue;
    }
    const ended = endOfTurn(fact, start, now.getTime(), turnWaitMs, index < lastHanded);
    if (ended === null) {
      current = agentKey;
      deadline = iso(start + turnWaitMs);
      positions.push({ agentKey, state: 'turn', startedAt: iso(start), endedAt: null });
      continue;
    }
    positions.push({ agentKey, state: ended.outcome, startedAt: iso(start), endedAt: iso(ended.at) });
    start = ended.at;
  }
  return { positions, current, deadline };
}

/** How and when a turn that started at `start` ended, or null while it is still open at `now`. */
function endOfTurn(fact: TurnFacts, start: number, now: number, turnWaitMs: number, overtaken: boolean): { outcome: TurnOutcome; at: number } | null {
  const limit = start + turnWaitMs;
  const from = (stamp: string | null) => (stamp === null ? Infinity : Math.max(start, Date.parse(stamp)));
  // The first of what the agent did within its time; on a tie an answer, then a pass, wins.
  const ends: Array<{ outcome: TurnOutcome; at: number }> = [
    { outcome: 'answered', at: from(fact.answeredAt) },
    { outcome: 'passed', at: from(fact.passedAt) },
    { outcome: 'away', at: from(fact.awayAt) },
  ];
  const first = ends.reduce((best, end) => (end.at < best.at ? end : best));
  if (first.at <= now && first.at <= limit) return first;
  if (fact.away && fact.awayAt === null && fact.handedAt === null) return { outcome: 'away', at: start };
  if (limit <= now) return { outcome: 'timed_out', at: limit };
  if (overtaken) return { outcome: 'away', at: start };
  return null;
}

/** True when `agentKey`'s turn of the broadcast started (it may read it now); false while it waits. */
export function turnStarted(state: TurnState, agentKey: string): boolean {
  const position = state.positions.find((p) => p.agentKey === agentKey);
  return position !== undefined && position.state !== 'waiting';
}

function lastIndexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
  return -1;
}

const iso = (ms: number): string => new Date(ms).toISOString();
