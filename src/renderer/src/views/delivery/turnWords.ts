// A person's @all answered in turn (issue 34), in words under the message: "Aspen answered ·
// Birch's turn, 1:12 left · next: Cedar". The order and each state are the server's
// (MessageReceipts.turns); this only words them, with the time left counted from turnEndsAt.
import type { BroadcastTurns, TurnStep } from '../../../../shared/model/delivery';
import { formatCountdown } from '../../lib/time';

const DONE_WORDS: Readonly<Record<Exclude<TurnStep, 'turn' | 'waiting'>, string>> = {
  answered: 'answered',
  passed: 'passed',
  away: 'went away',
  timed_out: 'ran out of time',
};

/** "1:12" left until `endsAt`; "0:00" once it has come. */
export function timeLeft(endsAt: string, now: number): string {
  return formatCountdown(Math.ceil((Date.parse(endsAt) - now) / 1000));
}

export function turnsSummary(turns: BroadcastTurns, now: number): string {
  const parts: string[] = [];
  const waiting: string[] = [];
  for (const t of turns.order) {
    if (t.state === 'waiting') waiting.push(t.name);
    else if (t.state === 'turn') parts.push(turns.turnEndsAt ? `${t.name}'s turn, ${timeLeft(turns.turnEndsAt, now)} left` : `${t.name}'s turn`);
    else parts.push(`${t.name} ${DONE_WORDS[t.state]}`);
  }
  if (waiting.length > 0) parts.push(`next: ${waiting.join(', ')}`);
  return parts.join(' · ');
}

/** One agent's line in the opened receipts: what it did and when. */
export function turnDetail(turn: BroadcastTurns['order'][number], position: number, turnEndsAt: string | null, clock: (iso: string) => string): string {
  const head = `${position}. ${turn.name}`;
  switch (turn.state) {
    case 'waiting':
      return `${head}: waiting for the agents before it`;
    case 'turn':
      return `${head}: its turn since ${clock(turn.startedAt!)}${turnEndsAt ? `, until ${clock(turnEndsAt)} at the latest` : ''}`;
    default:
      return `${head}: ${DONE_WORDS[turn.state]}${turn.endedAt ? ` at ${clock(turn.endedAt)}` : ''}`;
  }
}
