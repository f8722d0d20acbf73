// An agent that went away (issue 34 item 2): its connection's reconnect grace ran out, or a
// person paused it. The app that sees it go records it away (a no_replies row of reason `away`,
// at that moment) from the open @all rounds where its turn was open or still to come, in one
// write that tells the room's waiters, the receipts and every other machine of a team (its
// NOTIFY hint, or the poll fallback's pass tracking) that the turn moved. Every machine then
// reads the same turn end from the same row. Read in the room's place; bounded by the turn
// queries' limits.
import type { Queryable, Tx } from '../../store/port';
import { recordTurnAway, unhandedTurnsOf } from '../../store/broadcastTurnQueries';
import { broadcastRound, turnsHandedInLastWait, turnTakers } from './broadcastRound';
import type { RoutingServices } from './roomMembers';

/** What the turn was, just before the agent went, for it to be recorded away: open, to come, or run out but never handed (so it stays "ran out of time"). */
const RECORDED = new Set(['turn', 'waiting', 'timed_out']);

/** The broadcasts of the room where `agentKey` may have a turn open or to come: handed within one turn's time, or not yet. */
export async function openTurnsOf(services: RoutingServices, q: Queryable, roomId: string, agentKey: string, now: Date): Promise<number[]> {
  const handed = await turnsHandedInLastWait(services, q, roomId, agentKey, now);
  const unhanded = (await unhandedTurnsOf(q, roomId, agentKey)).map((r) => r.message_number);
  return [...new Set([...handed, ...unhanded])];
}

/** Records `agentKey`, when it is away now, away from the room's open @all rounds; the numbers whose turns moved. */
export async function recordAwayTurns(services: RoutingServices, tx: Tx, place: string, roomId: string, agentKey: string): Promise<number[]> {
  // Offline here but taken over by another machine's app, or back already: not away.
  if ((await turnTakers(services, tx, place, roomId)).has(agentKey)) return [];
  const now = new Date(tx.now);
  const moved: number[] = [];
  for (const number of await openTurnsOf(services, tx, roomId, agentKey, now)) {
    // The round as it stood with the agent still there.
    const round = await broadcastRound(services, tx, place, roomId, number, now, agentKey);
    const mine = round?.state.positions.find((p) => p.agentKey === agentKey);
    if (!mine || !RECORDED.has(mine.state)) continue;
    if (await recordTurnAway(tx, roomId, number, agentKey)) moved.push(number);
  }
  return moved;
}

/** Records `agentKey` away (recordAwayTurns) and says the turns moved, in the same write. */
export async function leaveTurns(services: RoutingServices, tx: Tx, place: string, roomId: string, agentKey: string, sessionId: string): Promise<void> {
  for (const number of await recordAwayTurns(services, tx, place, roomId, agentKey)) {
    tx.emit({ type: 'message.receipts', roomId, sessionId, first: number, last: number, turn: true });
  }
}
