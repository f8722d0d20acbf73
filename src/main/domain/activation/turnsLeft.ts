// An agent whose connection dropped and whose grace ran out is away (issue 34 item 2): the open
// @all rounds in which it held the turn (or had it coming before the current one) move on now,
// not at the turn's deadline. Read in the room's place; bounded by the turn queries' limits.
import type { Queryable } from '../../store/port';
import { unhandedTurnsOf } from '../../store/broadcastTurnQueries';
import { broadcastRound, turnsHandedInLastWait } from './broadcastRound';
import type { RoutingServices } from './roomMembers';

/** The broadcasts of the room whose open round skipped `agentKey` as away: its turn there moved on. */
export async function turnsLeftBy(services: RoutingServices, q: Queryable, place: string, roomId: string, agentKey: string, now = new Date()): Promise<number[]> {
  const handed = await turnsHandedInLastWait(services, q, roomId, agentKey, now);
  const unhanded = (await unhandedTurnsOf(q, roomId, agentKey)).map((r) => r.message_number);
  const moved: number[] = [];
  for (const number of new Set([...handed, ...unhanded])) {
    const round = await broadcastRound(services, q, place, roomId, number, now);
    if (!round || round.state.current === null) continue;
    const positions = round.state.positions;
    const mine = positions.findIndex((p) => p.agentKey === agentKey);
    const current = positions.findIndex((p) => p.agentKey === round.state.current);
    if (mine >= 0 && mine < current && positions[mine].state === 'away') moved.push(number);
  }
  return moved;
}
