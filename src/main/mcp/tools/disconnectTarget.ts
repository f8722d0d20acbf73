// Which session disconnect_agent_session ends (mcp-tools.md §4): the worker's session,
// or the named legacy session, in room_id, else the worker's room, else the current
// room, else the session's own room. A caller that no longer holds it gets W13/W12.
import { errors } from '../../domain/errors';
import { isWorkerIdShape, workerSessionId } from '../../domain/identity/agentKeys';
import { getSession, type SessionRow } from '../../domain/sessions/sessions';
import { getWorker, workerRooms } from '../../domain/sessions/workers';
import type { ToolEnv } from '../services';

export function disconnectTarget(env: ToolEnv, args: { room_id?: string; agent_session_id?: string; worker_id?: string }): SessionRow {
  if (args.worker_id !== undefined && args.agent_session_id !== undefined) throw errors.W1();
  const db = env.services.store.db;
  let session: SessionRow | undefined;
  if (args.worker_id !== undefined) {
    if (!isWorkerIdShape(args.worker_id) || !getWorker(db, args.worker_id)) throw errors.W7();
    const rooms = workerRooms(db, args.worker_id);
    const roomId = args.room_id?.trim() || (rooms.length === 1 ? rooms[0] : env.conn.currentRoom);
    if (!roomId || !rooms.includes(roomId)) throw errors.W12();
    session = getSession(db, workerSessionId(args.worker_id, roomId));
  } else if (args.agent_session_id !== undefined) {
    session = getSession(db, args.agent_session_id);
    if (!session) throw errors.W17(args.agent_session_id);
    if (!session.worker_id && !env.conn.ownsLegacySession(session.session_id)) throw errors.W17(args.agent_session_id);
  } else {
    throw errors.W21();
  }
  if (!session) throw errors.W12();
  if (session.ended_at) return session;
  const hadToken = env.conn.tokens.has(session.session_id);
  if (!env.services.bindings.holds(env.conn, session.session_id)) throw hadToken ? errors.W13() : errors.W12();
  return session;
}

