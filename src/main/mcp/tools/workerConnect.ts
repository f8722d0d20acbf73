// Connecting a chat to its worker session (worker-handles.md §6): fast path, one
// registration in flight per session, the synchronous token swap before any database
// write, then persisting the session, the taken-name notice and the resumed-work notice.
import { workerSessionId } from '../../domain/identity/agentKeys';
import { getSession, openWorkerSession, toAgentSessionObject, type SessionRow } from '../../domain/sessions/sessions';
import type { WorkerRow } from '../../domain/sessions/workers';
import { activeLeasesOfSession } from '../../domain/tasks/workLease';
import { gitCurrentBranch } from '../../domain/git';
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

export async function registrationResult(env: ToolEnv, workerId: string, session: SessionRow): Promise<WorkerRegistration> {
  return {
    success: true,
    worker_id: workerId,
    agent_session: toAgentSessionObject(session, { online: true, hostId: await env.services.hostId() }),
    instruction: WORKER_INSTRUCTION,
  };
}

/** Binds `worker`'s session in `roomId` to this connection, creating or reviving it. */
export async function connectWorker(
  env: ToolEnv,
  worker: WorkerRow,
  roomId: string,
  options: { cwd: string | null; sessionKind: 'worker' | 'controller' },
): Promise<WorkerRegistration> {
  const { bindings, store } = env.services;
  const sessionId = workerSessionId(worker.worker_id, roomId);
  const held = await store.read((q) => getSession(q, sessionId));
  if (held && !held.ended_at && bindings.holds(env.conn, sessionId)) return registrationResult(env, worker.worker_id, held);

  return bindings.registerOnce(env.conn, sessionId, async () => {
    const predecessor = bindings.binding(sessionId);
    const cwd = options.cwd ?? env.conn.info.cwd;
    const repoBranch = cwd ? await gitCurrentBranch(cwd).catch(() => null) : null;
    bindings.swap(env.conn, sessionId, predecessor);
    let persisted: { session: SessionRow; firstRegistration: boolean };
    try {
      // Nothing here changes memory: the swap happened above, and the write may be re-run.
      persisted = await store.write((tx) => openWorkerSession(tx, { worker, roomId, repoBranch, sessionKind: options.sessionKind }));
    } catch (error) {
      bindings.unbind(sessionId, env.conn);
      throw error;
    }
    const { session, firstRegistration } = persisted;
    const result: WorkerRegistration = {
      ...(await registrationResult(env, worker.worker_id, session)),
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
