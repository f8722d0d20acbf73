// An agent whose connection dropped and whose grace ran out is away (issue 34 item 2): the open
// @all rounds in which it held the turn (or had it coming before the current one) move on now,
// not at the turn's deadline. Read in the room's place; bounded by the turn queries' limits.
import type { Queryable } from '../../store/port';
import { recentlyHandedTurnsOf, unhandedTurnsOf } from '../../store/broadcastTurnQueries';
import { broadcastRound } from './broadcastRound';
import type { RoutingServices } from './roomMembers';
import { TURN_WAIT_MS } from './broadcastTurns';

/** The broadcasts of the room whose open round skipped `agentKey` as away: its turn there moved on. */
export async function turnsLeftBy(services: RoutingServices, q: Queryable, place: string, roomId: string, agentKey: string, now = new Date()): Promise<number[]> {
  const since = new Date(now.getTime() - (services.turnWaitMs ?? TURN_WAIT_MS)).toISOString();
  const rows = [...(await recentlyHandedTurnsOf(q, roomId, agentKey, since)), ...(await unhandedTurnsOf(q, roomId, agentKey))];
  const moved: number[] = [];
  for (const number of new Set(rows.map((r) => r.message_number))) {
    const round = await broadcastRound(services, q, place, roomId, number, now);
    if (!round || round.state.current === null) continue;
    const positions = round.state.positions;
    const mine = positions.findIndex((p) => p.agentKey === agentKey);
    const current = positions.findIndex((p) => p.agentKey === round.state.current);
    if (mine >= 0 && mine < current && positions[mine].state === 'away') moved.push(number);
  }
  return moved;
}
