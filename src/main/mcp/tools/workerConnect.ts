// Connecting a chat to its worker session (worker-handles.md §6): fast path, one
// registration in flight per session, the synchronous token swap before any database
// write, then persisting the session (with a new binding epoch, which fences the previous
// holder on any machine), the taken-name notice and the resumed-work notice.
import { workerSessionId } from '../../domain/identity/agentKeys';
import { getSession, openWorkerSession, toAgentSessionObject, type SessionRow } from '../../domain/sessions/sessions';
import { adoptWorker, type WorkerRow } from '../../domain/sessions/workers';
import { activeLeasesOfSession } from '../../domain/tasks/workLease';
import { gitCurrentBranch } from '../../domain/git';
import { sessionKeyOf, type RoomRef } from '../identity';
import { noteCallIdentity } from '../callScope';
import type { ToolEnv } from '../services';
import { nameTaken } from './nameNotice';

export const WORKER_INSTRUCTION =
  'Keep this worker_id for this chat and pass it to every room tool. After a restart or reconnect, call ' +
  'register_agent_session with this worker_id and room_id. Never share it with another chat.';

export interface WorkerRegistration {
  success: true;
  worker_id: string;
  agent_session: ReturnType<typeof toAgentSessionObject>;
  /** Set when the first registration in the room could not give the worker its name. */
  requested_name?: string;
  name_taken?: true;
  name_notice?: string;
  resumed_work?: string;
  instruction: string;
}

export async function registrationResult(env: ToolEnv, place: string, workerId: string, session: SessionRow): Promise<WorkerRegistration> {
  // The token meter charges the result to the session it names, in this place.
  noteCallIdentity(env, { place, roomId: session.room_id }, null);
  return {
    success: true,
    worker_id: workerId,
    agent_session: toAgentSessionObject(session, { online: true, hostId: await env.services.hostId(), place }),
    instruction: WORKER_INSTRUCTION,
  };
}

/** Binds `worker`'s session in `room` to this connection, creating or reviving it. */
export async function connectWorker(
  env: ToolEnv,
  worker: WorkerRow,
  room: RoomRef,
  options: { cwd: string | null; sessionKind: 'worker' | 'controller' },
): Promise<WorkerRegistration> {
  const { bindings } = env.services;
  const { place, storage: store, roomId } = room;
  const sessionId = workerSessionId(worker.worker_id, roomId);
  const key = sessionKeyOf(place, { session_id: sessionId });
  env.conn.noteRoom(place, roomId);
  env.conn.workerPlaces.set(worker.worker_id, new Set([...(env.conn.workerPlaces.get(worker.worker_id) ?? []), place]));
  const held = await store.read((q) => getSession(q, sessionId));
  if (held && !held.ended_at && bindings.holds(env.conn, key)) return registrationResult(env, place, worker.worker_id, held);

  return bindings.registerOnce(env.conn, key, async () => {
    const predecessor = bindings.binding(key);
    const cwd = options.cwd ?? env.conn.info.cwd;
    const repoBranch = cwd ? await gitCurrentBranch(cwd).catch(() => null) : null;
    const host = await env.services.host();
    bindings.swap(env.conn, key, predecessor);
    const token = env.conn.tokens.get(key)!;
    let persisted: { session: SessionRow; firstRegistration: boolean };
    try {
      // Nothing here changes memory: the swap happened above, and the write may be re-run.
      persisted = await store.write(async (tx) => {
        await adoptWorker(tx, worker);
        return openWorkerSession(tx, { worker, roomId, repoBranch, sessionKind: options.sessionKind, host });
      });
    } catch (error) {
      bindings.unbind(key, env.conn);
      throw error;
    }
    const { session, firstRegistration } = persisted;
    bindings.setEpoch(key, token, session.binding_epoch);
    const result: WorkerRegistration = {
      ...(await registrationResult(env, place, worker.worker_id, session)),
      ...(firstRegistration ? nameTaken(worker.display_name, session.display_name) : {}),
    };
    const leases = await store.read((q) => activeLeasesOfSession(q, sessionId));
    if (leases.length > 0) {
      const list = leases.map((l) => `task_${l.taskNumber} (${l.kind})`).join(', ');
      result.resumed_work =
        `An earlier session of this agent held these leases, and this session holds them now: ${list}. ` +
        'Carry on with that work, or release what is not yours to do.';
    }
    return result;
  });
}
