// Which session disconnect_agent_session ends (mcp-tools.md §4): the worker's session,
// or the named legacy session, in room_id, else the worker's room, else the current
// room, else the session's own room. A caller that no longer holds it gets W13/W12.
import { errors } from '../../domain/errors';
import { getSession, type SessionRow } from '../../domain/sessions/sessions';
import { workerSession } from '../identity';
import type { ToolEnv } from '../services';

export async function disconnectTarget(env: ToolEnv, args: { room_id?: string; agent_session_id?: string; worker_id?: string }): Promise<SessionRow> {
  if (args.worker_id !== undefined && args.agent_session_id !== undefined) throw errors.W1();
  const { store } = env.services;
  let session: SessionRow | undefined;
  if (args.worker_id !== undefined) {
    const workerId = args.worker_id;
    session = await store.read((q) => workerSession(q, workerId, args.room_id, env.conn.currentRoom));
  } else if (args.agent_session_id !== undefined) {
    const sessionId = args.agent_session_id;
    session = await store.read((q) => getSession(q, sessionId));
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

