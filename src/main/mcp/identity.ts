// Resolving who acts on a tool call (mcp-tools.md §2.3) and the per-call checks of
// worker-handles.md §7 and §10. Writes made as a worker are fenced: the transaction's
// first step re-checks that this connection still holds the session (§8).
import { errors, isDomainError } from '../domain/errors';
import type { AgentActor } from '../domain/actor';
import { isWorkerIdShape, newLegacySessionId, workerSessionId } from '../domain/identity/agentKeys';
import { getWorker, workerRooms } from '../domain/sessions/workers';
import { getSession, createLegacySession, sessionActor, type SessionRow } from '../domain/sessions/sessions';
import { ideLabelFor } from './clientIdentity';
import { requireRoom, resolveWritableRoom } from '../domain/rooms/rooms';
import type { Queryable, Tx } from '../store/port';
import { noteCallIdentity } from './callScope';
import { hardened } from './results';
import type { OwnerIdentity, ToolEnv } from './services';

export type IdentityKind = 'worker' | 'legacy' | 'implicit' | 'none';

export interface CallIdentity {
  readonly kind: IdentityKind;
  readonly roomId: string;
  readonly session: SessionRow | null;
  readonly actor: AgentActor | null;
}

export interface IdentityArgs {
  room_id?: string;
  worker_id?: string;
  agent_session_id?: string;
}

export interface ResolveOptions {
  /** The call stores something (a message, task change, artifact, fact, request). */
  readonly write: boolean;
  /** send_message, send_thread_message, post_status: room failures are hard (R2). */
  readonly posting?: boolean;
}

/** The acting agent of a session. */
export const actorOf = (session: SessionRow): AgentActor => sessionActor(session);

/** Resolves the acting identity and room, or throws the spec's error; the token meter charges the call to them. */
export async function resolveIdentity(env: ToolEnv, args: IdentityArgs, options: ResolveOptions): Promise<CallIdentity> {
  const identity = await resolveIdentityOf(env, args, options);
  noteCallIdentity(env, identity.roomId, identity.session?.session_id ?? null);
  return identity;
}

async function resolveIdentityOf(env: ToolEnv, args: IdentityArgs, options: ResolveOptions): Promise<CallIdentity> {
  if (args.worker_id !== undefined && args.agent_session_id !== undefined) throw errors.W1();
  return env.services.store.read(async (q) => {
    if (args.worker_id !== undefined) {
      const session = await workerSession(q, args.worker_id, args.room_id);
      return checkedWorker(env, q, session, options);
    }
    if (args.agent_session_id !== undefined) {
      const session = await getSession(q, args.agent_session_id);
      if (session?.worker_id) {
        if (args.room_id !== undefined && args.room_id.trim() !== session.room_id) throw errors.W12();
        return checkedWorker(env, q, session, options);
      }
      return checkedLegacy(env, q, session, args, options);
    }
    const roomId = await resolveRoomId(env, q, args.room_id, options);
    if (!options.write) return { kind: 'none', roomId, session: null, actor: null };
    if ((await heldWorkerSessions(env, q, roomId)).length > 0) throw errors.W16();
    const legacy = await newestLiveLegacySession(env, q, roomId);
    if (legacy) return { kind: 'legacy', roomId, session: legacy, actor: actorOf(legacy) };
    // The implicit session is made by the write itself (fencedWrite), so a failing write creates none.
    const implicit = await liveImplicitSession(env, q, roomId);
    return { kind: 'implicit', roomId, session: implicit, actor: implicit && actorOf(implicit) };
  });
}

/**
 * A write as `identity`: fenced for sessions, so a replaced connection stores nothing.
 * An implicit identity without a session yet gets one in the same transaction.
 */
export async function fencedWrite<T>(
  env: ToolEnv,
  identity: CallIdentity,
  fn: (tx: Tx, identity: CallIdentity) => Promise<T>,
): Promise<{ value: T; identity: CallIdentity }> {
  let acting = identity;
  // The owner a new implicit session is labelled with, read before the write: inside it, reads go through tx only.
  const owner = identity.kind === 'implicit' && !identity.session ? await env.services.owner() : null;
  const value = await env.services.store.write(async (tx) => {
    // The fence: the first step of the transaction (worker-handles.md §8).
    if (identity.session && !env.services.bindings.holds(env.conn, identity.session.session_id)) throw errors.W14();
    if (owner) {
      const session = (await liveImplicitSession(env, tx, identity.roomId)) ?? (await createImplicitSession(tx, env, identity.roomId, owner));
      acting = { ...identity, session, actor: actorOf(session) };
      tx.afterCommit(() => noteCallIdentity(env, identity.roomId, session.session_id));
    }
    return fn(tx, acting);
  });
  return { value, identity: acting };
}

/** §7 step 9: after the tool returns, a worker call must still hold its session. */
export function assertStillHeld(env: ToolEnv, identity: CallIdentity): void {
  if (identity.kind === 'worker' && identity.session && !env.services.bindings.holds(env.conn, identity.session.session_id)) {
    throw errors.W14();
  }
}

/** Room resolution for calls without a worker: explicit room, else the current room. */
export async function resolveRoomId(env: ToolEnv, q: Queryable, requested: string | undefined, options: ResolveOptions): Promise<string> {
  const roomId = requested?.trim() || env.conn.currentRoom;
  if (!roomId) throw options.posting ? errors.R2() : errors.R1();
  return checkRoom(q, roomId, options);
}

/** R3 for an unknown room, R4 for a write to an archived one; hard for the posting tools. */
async function checkRoom(q: Queryable, roomId: string, options: ResolveOptions): Promise<string> {
  try {
    return (options.write ? await resolveWritableRoom(q, roomId) : await requireRoom(q, roomId)).room_id;
  } catch (error) {
    throw options.posting && isDomainError(error) ? hardened(error) : error;
  }
}

/**
 * The worker's session (worker-handles.md §7 steps 2–3): in the requested room, else in its
 * only room, else in `fallbackRoom` when the caller has one (disconnect uses the current room).
 */
export async function workerSession(q: Queryable, workerId: string, requestedRoom: string | undefined, fallbackRoom: string | null = null): Promise<SessionRow> {
  if (!isWorkerIdShape(workerId) || !(await getWorker(q, workerId))) throw errors.W7();
  const rooms = await workerRooms(q, workerId);
  const roomId = requestedRoom?.trim() || (rooms.length === 1 ? rooms[0] : fallbackRoom);
  if (!roomId || !rooms.includes(roomId)) throw errors.W12();
  const session = await getSession(q, workerSessionId(workerId, roomId));
  if (!session) throw errors.W12();
  return session;
}

async function checkedWorker(env: ToolEnv, q: Queryable, session: SessionRow, options: ResolveOptions): Promise<CallIdentity> {
  const { bindings } = env.services;
  const id = session.session_id;
  const hadToken = env.conn.tokens.has(id);
  if (session.ended_by === 'person' && bindings.heldWhenEndedByPerson(env.conn, id)) throw errors.W15();
  if (hadToken && !bindings.holds(env.conn, id)) throw errors.W13();
  if (!hadToken || session.ended_at) throw errors.W12();
  await checkRoom(q, session.room_id, options);
  env.services.touchSession(id);
  return { kind: 'worker', roomId: session.room_id, session, actor: actorOf(session) };
}

async function checkedLegacy(
  env: ToolEnv, q: Queryable, session: SessionRow | undefined, args: IdentityArgs, options: ResolveOptions,
): Promise<CallIdentity> {
  const requested = args.agent_session_id!;
  const owned = session && env.conn.ownsLegacySession(session.session_id);
  if (!session || (!session.ended_at && !owned)) throw errors.W17(requested);
  if (session.ended_at) throw errors.W18(requested, session.ended_at);
  if (args.room_id !== undefined && args.room_id.trim() !== session.room_id) {
    throw errors.W19(requested, session.room_id, args.room_id.trim());
  }
  if (options.write && session.session_kind === 'controller') throw errors.W20();
  await checkRoom(q, session.room_id, options);
  env.services.touchSession(session.session_id);
  return { kind: 'legacy', roomId: session.room_id, session, actor: actorOf(session) };
}


/** The live durable worker sessions in `roomId` that this connection holds. */
export async function heldWorkerSessions(env: ToolEnv, q: Queryable, roomId: string): Promise<SessionRow[]> {
  const held: SessionRow[] = [];
  for (const sessionId of [...env.conn.tokens.keys()]) {
    if (!env.services.bindings.holds(env.conn, sessionId)) continue;
    const session = await getSession(q, sessionId);
    if (session?.worker_id && session.room_id === roomId && !session.ended_at) held.push(session);
  }
  return held;
}

/** The newest live legacy session this connection registered in `roomId` (workers only, unless `anyKind`). */
export async function newestLiveLegacySession(env: ToolEnv, q: Queryable, roomId: string, anyKind = false): Promise<SessionRow | null> {
  const legacySessions = [...env.conn.legacySessions];
  for (let i = legacySessions.length - 1; i >= 0; i--) {
    const session = await getSession(q, legacySessions[i]);
    if (session && session.room_id === roomId && !session.ended_at && (anyKind || session.session_kind === 'worker')) return session;
  }
  return null;
}

/**
 * Who a read or a wait is for (mcp-tools.md §5.3, routing identity): the acting session,
 * else this connection's live legacy or implicit session in the room; null with none.
 */
export async function readingSession(env: ToolEnv, q: Queryable, roomId: string, acting: SessionRow | null): Promise<SessionRow | null> {
  return acting ?? (await newestLiveLegacySession(env, q, roomId, true)) ?? (await liveImplicitSession(env, q, roomId));
}

/** This connection's implicit session in `roomId`, while it is live. */
export async function liveImplicitSession(env: ToolEnv, q: Queryable, roomId: string): Promise<SessionRow | null> {
  const existing = env.conn.implicitSessions.get(roomId);
  const session = existing ? await getSession(q, existing) : undefined;
  return session && !session.ended_at ? session : null;
}

/** Inside the write's transaction; the connection adopts the session only once it commits. */
async function createImplicitSession(tx: Tx, env: ToolEnv, roomId: string, owner: OwnerIdentity): Promise<SessionRow> {
  const ide = ideLabelFor(env.conn);
  const session = await createLegacySession(tx, {
    roomId,
    requestedName: null,
    defaultKey: `conn:${env.conn.id}`,
    ownerLabel: owner.ownerLabel,
    ownerSlug: owner.ownerSlug,
    ideLabel: ide.ideLabel,
    runtime: ide.runtime,
    sessionKind: 'worker',
    sessionId: env.conn.nextImplicitSessionId,
  });
  tx.afterCommit(() => {
    env.conn.nextImplicitSessionId = newLegacySessionId();
    env.conn.implicitSessions.set(roomId, session.session_id);
    env.services.bindings.bindOwned(env.conn, session.session_id);
  });
  return session;
}
