// Which session disconnect_agent_session ends (mcp-tools.md §4): the worker's session,
// or the named legacy session, in room_id, else the worker's room, else the current
// room, else the session's own room — in whichever place it is. A caller that no longer
// holds it gets W13/W12.
import { errors } from '../../domain/errors';
import { sessionById, sessionKeyOf, workerSession, type FoundSession } from '../identity';
import type { ToolEnv } from '../services';

export async function disconnectTarget(env: ToolEnv, args: { room_id?: string; agent_session_id?: string; worker_id?: string }): Promise<FoundSession> {
  if (args.worker_id !== undefined && args.agent_session_id !== undefined) throw errors.W1();
  let found: FoundSession;
  if (args.worker_id !== undefined) {
    const current = env.conn.currentRoom ? { place: env.conn.currentPlace, roomId: env.conn.currentRoom } : null;
    found = await workerSession(env, args.worker_id, args.room_id, current);
  } else if (args.agent_session_id !== undefined) {
    const byId = await sessionById(env, args.agent_session_id);
    if (!byId) throw errors.W17(args.agent_session_id);
    if (!byId.session.worker_id && !env.conn.ownsLegacySession(sessionKeyOf(byId.place, byId.session))) throw errors.W17(args.agent_session_id);
    found = byId;
  } else {
    throw errors.W21();
  }
  if (found.session.ended_at) return found;
  const key = sessionKeyOf(found.place, found.session);
  const hadToken = env.conn.tokens.has(key);
  if (!env.services.bindings.holds(env.conn, key)) throw hadToken ? errors.W13() : errors.W12();
  return found;
}
