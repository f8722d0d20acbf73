// Worker session tools (mcp-tools.md §4, worker-handles.md §3–5, §9–10):
// register_agent_session (create, resume, recover, legacy) and disconnect_agent_session.
// A worker lives in the place of each room it has a session in: created in its first
// room's place, and written into another place's database when it joins a room there.
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { normalizeHandle } from '../../domain/identity/handles';
import { cleanDisplayName } from '../../domain/identity/names';
import { isWorkerIdShape } from '../../domain/identity/agentKeys';
import { createLegacySession, endSession, getSession, legacyPreferredName, toAgentSessionObject } from '../../domain/sessions/sessions';
import { findOrCreateWorker, getWorker, type WorkerRow } from '../../domain/sessions/workers';
import { ideLabelFor } from '../clientIdentity';
import { actorOf, fencedWrite, heldWorkerSessions, resolveRoom, sessionKeyOf, type RoomRef } from '../identity';
import { placeKey } from '../../domain/placeKeys';
import type { ToolEnv } from '../services';
import { STRING, result, objectResult } from '../outputSchemas';
import { defineTool, idempotentChange, workerFacade } from '../toolKit';
import { connectWorker, registrationResult } from './workerConnect';
import { nameTaken, RECOVERY_HINT } from './nameNotice';
import { disconnectTarget } from './disconnectTarget';

const USE_SESSION_ID = 'Pass this exact agent_session_id to wait_for_messages, send_message, and every other room tool.';

const registerInput = {
  worker_id: z.string().optional().describe('Resume (or take over) this chat\'s worker.'),
  registration_key: z.string().min(1).max(200).optional().describe('Random, new per chat: creates its worker. Reuse only to retry a failed first call.'),
  room_id: z.string().optional(),
  session_kind: z.enum(['worker', 'controller']).optional().describe('controller: read-only, not on the roster.'),
  runtime: z.string().max(64).optional(),
  display_name: z.string().optional().describe('Your short codename, 1–64 chars.'),
  cwd: z.string().optional(),
  recover_lost_worker: z.boolean().optional().describe('Recover this connection\'s worker by display_name.'),
};

export const registerAgentSession = defineTool({
  name: 'register_agent_session',
  title: 'Register agent',
  description: 'Register this chat as a worker in room_id, once; pass the worker_id it returns on every call.',
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
    const room = await resolveRoom(env, args.room_id, { write: true });
    if (recover) return recoverWorker(env, room, args.display_name!);

    const sessionKind = 'worker' as const;
    const workerId = args.worker_id;
    if (workerId !== undefined) {
      const worker = isWorkerIdShape(workerId) ? await findWorker(env, room, workerId) : undefined;
      if (!worker) throw errors.W7();
      return connectWorker(env, worker, room, { cwd: args.cwd ?? null, sessionKind });
    }
    const owner = await env.services.owner();
    const ide = ideLabelFor(env.conn);
    const { worker, created } = await room.storage.write((tx) =>
      findOrCreateWorker(tx, {
        registrationKey: args.registration_key!,
        requestedName: args.display_name ?? null,
        ownerLabel: owner.ownerLabel,
        ownerSlug: owner.ownerSlug,
        ideLabel: ide.ideLabel,
        runtime: args.runtime ?? ide.runtime,
      }),
    );
    const heldClash = created && (await holdsWorkerNamed(env, room, args.display_name));
    const result = await connectWorker(env, worker, room, { cwd: args.cwd ?? null, sessionKind });
    return heldClash && result.name_notice ? { ...result, name_notice: `${result.name_notice} ${RECOVERY_HINT}` } : result;
  },
});

/** A worker by id: in the room's place, else wherever this app can read one (it joins this place on connect). */
async function findWorker(env: ToolEnv, room: RoomRef, workerId: string): Promise<WorkerRow | undefined> {
  const here = await room.storage.read((q) => getWorker(q, workerId));
  if (here) return here;
  for (const storage of await env.services.places.reachable()) {
    if (storage === room.storage) continue;
    const there = await storage.read((q) => getWorker(q, workerId));
    if (there) return there;
  }
  return undefined;
}

/** §3 step 3: does a worker held by this connection in the room already use the requested name? */
async function holdsWorkerNamed(env: ToolEnv, room: RoomRef, requested: string | undefined): Promise<boolean> {
  const cleaned = cleanDisplayName(requested);
  if (!cleaned) return false;
  const held = await room.storage.read((q) => heldWorkerSessions(env, q, room));
  return held.some((s) => s.name_key === normalizeHandle(cleaned));
}


/** §5: only sessions this connection holds are candidates; nothing rotates. */
async function recoverWorker(env: ToolEnv, room: RoomRef, displayName: string) {
  const wanted = normalizeHandle(cleanDisplayName(displayName) ?? displayName).toLowerCase();
  const held = await room.storage.read((q) => heldWorkerSessions(env, q, room));
  const matches = held.filter((s) => s.name_key.toLowerCase() === wanted);
  if (matches.length === 0) throw errors.W8(displayName);
  if (matches.length > 1) throw errors.W9(displayName);
  return registrationResult(env, room.place, matches[0].worker_id!, matches[0]);
}

async function registerLegacy(env: ToolEnv, args: z.infer<z.ZodObject<typeof registerInput>>) {
  const room = await resolveRoom(env, args.room_id, { write: true });
  const owner = await env.services.owner();
  const host = await env.services.host();
  const ide = ideLabelFor(env.conn);
  const defaultKey = `conn:${env.conn.id}`;
  const session = await room.storage.write((tx) =>
    createLegacySession(tx, {
      roomId: room.roomId,
      requestedName: args.display_name ?? null,
      defaultKey,
      ownerLabel: owner.ownerLabel,
      ownerSlug: owner.ownerSlug,
      ideLabel: ide.ideLabel,
      runtime: args.runtime ?? ide.runtime,
      sessionKind: args.session_kind ?? 'worker',
      host,
    }),
  );
  const key = sessionKeyOf(room.place, session);
  env.conn.legacySessions.push(key);
  env.conn.noteRoom(room.place, room.roomId);
  env.services.bindings.bindOwned(env.conn, key);
  return {
    success: true,
    local: true,
    agent_session: toAgentSessionObject(session, { online: true, hostId: await env.services.hostId(), place: room.place }),
    agent_session_id: session.session_id,
    use_agent_session_id: USE_SESSION_ID,
    ...nameTaken(legacyPreferredName(args.display_name, defaultKey), session.display_name),
  };
}

export const disconnectAgentSession = defineTool({
  name: 'disconnect_agent_session',
  title: 'Disconnect agent',
  description: 'End this chat\'s session in a room; leases stay. Registering with worker_id revives it.',
  input: {
    room_id: z.string().optional(),
    agent_session_id: z.string().optional().describe('Legacy session to end.'),
    ...workerFacade,
  },
  output: objectResult,
  annotations: idempotentChange,
  async run(args, env) {
    const { place, storage, session } = await disconnectTarget(env, args);
    const agentSession = async () => {
      const row = await storage.read((q) => getSession(q, session.session_id));
      return toAgentSessionObject(row!, { online: false, hostId: await env.services.hostId(), place });
    };
    if (session.ended_at) return { success: true, already_ended: true, agent_session: await agentSession() };
    const kind = session.worker_id ? 'worker' : 'legacy';
    await fencedWrite(env, { kind, place, storage, roomId: session.room_id, session, actor: actorOf(session) }, (tx) =>
      endSession(tx, session.session_id, 'disconnect'),
    );
    env.services.bindings.unbind(placeKey(place, session.session_id), env.conn);
    return { success: true, local: true, agent_session: await agentSession() };
  },
});
