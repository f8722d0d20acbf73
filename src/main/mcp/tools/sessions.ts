// Worker session tools (mcp-tools.md §4, worker-handles.md §3–5, §9–10):
// register_agent_session (create, resume, recover, legacy) and disconnect_agent_session.
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { normalizeHandle } from '../../domain/identity/handles';
import { cleanDisplayName } from '../../domain/identity/names';
import { isWorkerIdShape } from '../../domain/identity/agentKeys';
import { createLegacySession, endSession, getSession, legacyPreferredName, toAgentSessionObject } from '../../domain/sessions/sessions';
import { findOrCreateWorker, getWorker } from '../../domain/sessions/workers';
import { ideLabelFor } from '../clientIdentity';
import { actorOf, fencedWrite, heldWorkerSessions, resolveRoomId } from '../identity';
import type { ToolEnv } from '../services';
import { STRING, result, objectResult } from '../outputSchemas';
import { defineTool, idempotentChange, workerFacade } from '../toolKit';
import { connectWorker, registrationResult } from './workerConnect';
import { nameTaken, RECOVERY_HINT } from './nameNotice';
import { disconnectTarget } from './disconnectTarget';

const USE_SESSION_ID = 'Pass this exact agent_session_id to wait_for_messages, send_message, and every other room tool.';

const registerInput = {
  worker_id: z.string().optional().describe('Resume this chat\'s worker.'),
  registration_key: z.string().min(1).max(200).optional().describe('Random, new per chat. Reuse only to retry a failed first call.'),
  room_id: z.string().optional(),
  session_kind: z.enum(['worker', 'controller']).optional().describe('controller: read-only, not on the roster.'),
  runtime: z.string().max(64).optional(),
  display_name: z.string().optional().describe('A short codename of your own (1–64 chars).'),
  cwd: z.string().optional(),
  recover_lost_worker: z.boolean().optional().describe('Recover a worker this connection holds, by display_name.'),
};

export const registerAgentSession = defineTool({
  name: 'register_agent_session',
  title: 'Register agent',
  description:
    'Register this chat as a worker in room_id, once per chat: a new registration_key creates it, worker_id resumes it ' +
    '(taking it over from another connection). Keep the worker_id; pass it on every call.',
  input: registerInput,
  output: result({ worker_id: STRING }),
  // Idempotent per key or worker_id; destructive because it may displace another connection.
  annotations: idempotentChange,
  async run(args, env) {
    const durable = args.worker_id !== undefined || args.registration_key !== undefined || args.recover_lost_worker !== undefined;
    if (!durable) return registerLegacy(env, args);
    if (args.session_kind === 'controller') throw errors.W2();
    if (args.room_id === undefined || args.room_id.trim() === '') throw errors.W3();
    const recover = args.recover_lost_worker === true;
    if (recover && (args.display_name === undefined || args.worker_id !== undefined || args.registration_key !== undefined)) throw errors.W4();
    if (args.worker_id !== undefined && args.registration_key !== undefined) throw errors.W5();
    if (!recover && args.worker_id === undefined && args.registration_key === undefined) throw errors.W6();
    const { store } = env.services;
    const roomId = await store.read((q) => resolveRoomId(env, q, args.room_id, { write: true }));
    if (recover) return recoverWorker(env, roomId, args.display_name!);

    const sessionKind = 'worker' as const;
    const workerId = args.worker_id;
    if (workerId !== undefined) {
      const worker = isWorkerIdShape(workerId) ? await store.read((q) => getWorker(q, workerId)) : undefined;
      if (!worker) throw errors.W7();
      return connectWorker(env, worker, roomId, { cwd: args.cwd ?? null, sessionKind });
    }
    const owner = await env.services.owner();
    const ide = ideLabelFor(env.conn);
    const { worker, created } = await env.services.store.write((tx) =>
      findOrCreateWorker(tx, {
        registrationKey: args.registration_key!,
        requestedName: args.display_name ?? null,
        ownerLabel: owner.ownerLabel,
        ownerSlug: owner.ownerSlug,
        ideLabel: ide.ideLabel,
        runtime: args.runtime ?? ide.runtime,
      }),
    );
    const heldClash = created && (await holdsWorkerNamed(env, roomId, args.display_name));
    const result = await connectWorker(env, worker, roomId, { cwd: args.cwd ?? null, sessionKind });
    return heldClash && result.name_notice ? { ...result, name_notice: `${result.name_notice} ${RECOVERY_HINT}` } : result;
  },
});

/** §3 step 3: does a worker held by this connection in the room already use the requested name? */
async function holdsWorkerNamed(env: ToolEnv, roomId: string, requested: string | undefined): Promise<boolean> {
  const cleaned = cleanDisplayName(requested);
  if (!cleaned) return false;
  const held = await env.services.store.read((q) => heldWorkerSessions(env, q, roomId));
  return held.some((s) => s.name_key === normalizeHandle(cleaned));
}


/** §5: only sessions this connection holds are candidates; nothing rotates. */
async function recoverWorker(env: ToolEnv, roomId: string, displayName: string) {
  const wanted = normalizeHandle(cleanDisplayName(displayName) ?? displayName).toLowerCase();
  const held = await env.services.store.read((q) => heldWorkerSessions(env, q, roomId));
  const matches = held.filter((s) => s.name_key.toLowerCase() === wanted);
  if (matches.length === 0) throw errors.W8(displayName);
  if (matches.length > 1) throw errors.W9(displayName);
  return registrationResult(env, matches[0].worker_id!, matches[0]);
}

async function registerLegacy(env: ToolEnv, args: z.infer<z.ZodObject<typeof registerInput>>) {
  const roomId = await env.services.store.read((q) => resolveRoomId(env, q, args.room_id, { write: true }));
  const owner = await env.services.owner();
  const ide = ideLabelFor(env.conn);
  const defaultKey = `conn:${env.conn.id}`;
  const session = await env.services.store.write((tx) =>
    createLegacySession(tx, {
      roomId,
      requestedName: args.display_name ?? null,
      defaultKey,
      ownerLabel: owner.ownerLabel,
      ownerSlug: owner.ownerSlug,
      ideLabel: ide.ideLabel,
      runtime: args.runtime ?? ide.runtime,
      sessionKind: args.session_kind ?? 'worker',
    }),
  );
  env.conn.legacySessions.push(session.session_id);
  env.services.bindings.bindOwned(env.conn, session.session_id);
  return {
    success: true,
    local: true,
    agent_session: toAgentSessionObject(session, { online: true, hostId: await env.services.hostId() }),
    agent_session_id: session.session_id,
    use_agent_session_id: USE_SESSION_ID,
    ...nameTaken(legacyPreferredName(args.display_name, defaultKey), session.display_name),
  };
}

export const disconnectAgentSession = defineTool({
  name: 'disconnect_agent_session',
  title: 'Disconnect agent',
  description: 'End this chat\'s session in a room. Leases stay; register_agent_session with the worker_id revives it.',
  input: {
    room_id: z.string().optional(),
    agent_session_id: z.string().optional().describe('Legacy session to end.'),
    ...workerFacade,
  },
  output: objectResult,
  annotations: idempotentChange,
  async run(args, env) {
    const session = await disconnectTarget(env, args);
    const agentSession = async () => {
      const row = await env.services.store.read((q) => getSession(q, session.session_id));
      return toAgentSessionObject(row!, { online: false, hostId: await env.services.hostId() });
    };
    if (session.ended_at) return { success: true, already_ended: true, agent_session: await agentSession() };
    const identity = { kind: session.worker_id ? 'worker' : 'legacy', roomId: session.room_id, session, actor: actorOf(session) } as const;
    await fencedWrite(env, identity, (tx) => endSession(tx, session.session_id, 'disconnect'));
    env.services.bindings.unbind(session.session_id, env.conn);
    return { success: true, local: true, agent_session: await agentSession() };
  },
});
