// Resolving who acts on a tool call (mcp-tools.md §2.3) and the per-call checks of
// worker-handles.md §7 and §10, across places: every identity names its room's place and
// storage. Writes made as a worker are fenced: the transaction's first step re-checks that
// this connection still holds the session, in memory and by the session's binding epoch in
// its database (a takeover on another machine bumps it), and the last step checks the
// memory again before COMMIT (§8).
import { errors, isDomainError } from '../domain/errors';
import type { AgentActor } from '../domain/actor';
import { isWorkerIdShape, newLegacySessionId, workerSessionId } from '../domain/identity/agentKeys';
import { getWorker, workerRooms } from '../domain/sessions/workers';
import { bindingEpoch, getSession, createLegacySession, sessionActor, type SessionHost, type SessionRow } from '../domain/sessions/sessions';
import { ideLabelFor } from './clientIdentity';
import { getRoom, requireRoom, resolveWritableRoom } from '../domain/rooms/rooms';
import { LOCAL_PLACE } from '../store/places';
import type { Queryable, Storage, Tx } from '../store/port';
import { noteCallIdentity } from './callScope';
import { placeKey, splitPlaceKey } from '../domain/placeKeys';
import { hardened } from './results';
import type { OwnerIdentity, ToolEnv } from './services';

export type IdentityKind = 'worker' | 'legacy' | 'implicit' | 'none';

/** A room and the place (and storage) it is in. */
export interface RoomRef {
  readonly place: string;
  readonly storage: Storage;
  readonly roomId: string;
}

export interface CallIdentity extends RoomRef {
  readonly kind: IdentityKind;
  readonly session: SessionRow | null;
  readonly actor: AgentActor | null;
}

/** A session found in one of the places. */
export interface FoundSession {
  readonly place: string;
  readonly storage: Storage;
  readonly session: SessionRow;
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

/** The binding key of a session in a place. */
export const sessionKeyOf = (place: string, session: Pick<SessionRow, 'session_id'>) => placeKey(place, session.session_id);

/** Resolves the acting identity and room, or throws the spec's error; the token meter charges the call to them. */
export async function resolveIdentity(env: ToolEnv, args: IdentityArgs, options: ResolveOptions): Promise<CallIdentity> {
  const identity = await resolveIdentityOf(env, args, options);
  noteCallIdentity(env, identity, identity.session?.session_id ?? null);
  return identity;
}

async function resolveIdentityOf(env: ToolEnv, args: IdentityArgs, options: ResolveOptions): Promise<CallIdentity> {
  if (args.worker_id !== undefined && args.agent_session_id !== undefined) throw errors.W1();
  if (args.worker_id !== undefined) return checkedWorker(env, await workerSession(env, args.worker_id, args.room_id), options);
  if (args.agent_session_id !== undefined) {
    const found = await sessionById(env, args.agent_session_id);
    if (found?.session.worker_id) {
      if (args.room_id !== undefined && args.room_id.trim() !== found.session.room_id) throw errors.W12();
      return checkedWorker(env, found, options);
    }
    return checkedLegacy(env, found, args, options);
  }
  const room = await resolveRoom(env, args.room_id, options);
  if (!options.write) return { kind: 'none', ...room, session: null, actor: null };
  return room.storage.read(async (q): Promise<CallIdentity> => {
    if ((await heldWorkerSessions(env, q, room)).length > 0) throw errors.W16();
    const legacy = await newestLiveLegacySession(env, q, room);
    if (legacy) return { kind: 'legacy', ...room, session: legacy, actor: actorOf(legacy) };
    // The implicit session is made by the write itself (fencedWrite), so a failing write creates none.
    const implicit = await liveImplicitSession(env, q, room);
    return { kind: 'implicit', ...room, session: implicit, actor: implicit && actorOf(implicit) };
  });
}

/**
 * A write as `identity`, in its room's place: fenced for sessions, so a replaced connection
 * stores nothing. An implicit identity without a session yet gets one in the same transaction.
 */
export async function fencedWrite<T>(
  env: ToolEnv,
  identity: CallIdentity,
  fn: (tx: Tx, identity: CallIdentity) => Promise<T>,
): Promise<{ value: T; identity: CallIdentity }> {
  const { bindings } = env.services;
  let acting = identity;
  // What a new implicit session is labelled with, read before the write: inside it, reads go through tx only.
  const creating = identity.kind === 'implicit' && !identity.session;
  const owner = creating ? await env.services.owner() : null;
  const host = creating ? await env.services.host() : null;
  const key = identity.session ? sessionKeyOf(identity.place, identity.session) : null;
  // The epoch this connection's bind was stored at: another machine's takeover moves it on.
  const epoch = key && identity.kind === 'worker' ? (bindings.binding(key)?.epoch ?? -1) : null;
  const value = await identity.storage.write(async (tx) => {
    // The fence: the first step of the transaction (worker-handles.md §8). Reading the epoch
    // first means a write queued behind a database lock checks the memory once it has the lock.
    if (key) {
      if (epoch !== null && (await bindingEpoch(tx, identity.session!.session_id)) !== epoch) throw errors.W14();
      if (!bindings.holds(env.conn, key)) throw errors.W14();
    }
    if (owner && host) {
      const session = (await liveImplicitSession(env, tx, identity)) ?? (await createImplicitSession(tx, env, identity, owner, host));
      acting = { ...identity, session, actor: actorOf(session) };
      tx.afterCommit(() => noteCallIdentity(env, identity, session.session_id));
    }
    const result = await fn(tx, acting);
    // …and the last before COMMIT: a swap while the write ran stores nothing.
    if (key && !bindings.holds(env.conn, key)) throw errors.W14();
    return result;
  });
  return { value, identity: acting };
}

/** §7 step 9: after the tool returns, a worker call must still hold its session. */
export function assertStillHeld(env: ToolEnv, identity: CallIdentity): void {
  if (identity.kind === 'worker' && identity.session && !env.services.bindings.holds(env.conn, sessionKeyOf(identity.place, identity.session))) {
    throw errors.W14();
  }
}

/**
 * The place of a room id an agent gives (team-rooms.md §1: an id is unique within its place):
 * the place of the room of that id this connection joined or registered in last; else this
 * computer, when it has such a room; else the first team (display order) that has one; else
 * this computer (where the caller reports R3). A team that cannot be reached is skipped.
 */
export async function locateRoom(env: ToolEnv, roomId: string): Promise<{ place: string; storage: Storage }> {
  const { places } = env.services;
  const noted = env.conn.roomPlaces.get(roomId);
  if (noted) return { place: noted, storage: await places.get(noted) };
  if (await places.local.read((q) => getRoom(q, roomId))) return { place: LOCAL_PLACE, storage: places.local };
  for (const place of (await places.list()).slice(1)) {
    const { status } = places.state(place);
    if (status === 'offline' || status === 'unavailable') continue;
    try {
      const storage = await places.get(place);
      if (await storage.read((q) => getRoom(q, roomId))) return { place, storage };
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
  }
  return { place: LOCAL_PLACE, storage: places.local };
}

/** Room resolution for calls without a worker: explicit room (locateRoom), else the current room; R1–R4 as the spec says. */
export async function resolveRoom(env: ToolEnv, requested: string | undefined, options: ResolveOptions): Promise<RoomRef> {
  const requestedId = requested?.trim();
  let where: { place: string; storage: Storage };
  let roomId: string;
  if (requestedId) {
    roomId = requestedId;
    where = await locateRoom(env, roomId);
  } else if (env.conn.currentRoom) {
    roomId = env.conn.currentRoom;
    where = { place: env.conn.currentPlace, storage: await env.services.places.get(env.conn.currentPlace) };
  } else {
    throw options.posting ? errors.R2() : errors.R1();
  }
  const checked = await where.storage.read((q) => checkRoom(q, roomId, options));
  return { ...where, roomId: checked };
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
 * Every room of the worker, in every place this app can read now (this computer first), and
 * in the places this connection connected it (a team offline then says team_offline rather
 * than forgetting the worker): W7 when there is none.
 */
async function workerRoomsEverywhere(env: ToolEnv, workerId: string): Promise<Array<RoomRef>> {
  if (!isWorkerIdShape(workerId)) throw errors.W7();
  const { places } = env.services;
  const storages = await places.reachable();
  for (const place of env.conn.workerPlaces.get(workerId) ?? []) {
    if (!storages.some((s) => s.place === place)) storages.push(await places.get(place));
  }
  const rooms: RoomRef[] = [];
  let known = false;
  for (const storage of storages) {
    const found = await storage.read(async (q) => ((await getWorker(q, workerId)) ? workerRooms(q, workerId) : null));
    if (!found) continue;
    known = true;
    rooms.push(...found.map((roomId) => ({ place: storage.place, storage, roomId })));
  }
  if (!known) throw errors.W7();
  return rooms;
}

/**
 * The worker's session (worker-handles.md §7 steps 2–3): in the requested room, else in its
 * only room, else in `fallback` when the caller has one (disconnect uses the current room).
 * A room id that exists in two places is the one this connection was in last, else the first.
 */
export async function workerSession(
  env: ToolEnv,
  workerId: string,
  requestedRoom: string | undefined,
  fallback: { place: string; roomId: string } | null = null,
): Promise<FoundSession> {
  const rooms = await workerRoomsEverywhere(env, workerId);
  const requested = requestedRoom?.trim();
  let pick: RoomRef | undefined;
  if (requested) {
    const matches = rooms.filter((r) => r.roomId === requested);
    pick = matches.find((r) => r.place === env.conn.roomPlaces.get(requested)) ?? matches[0];
  } else if (rooms.length === 1) {
    pick = rooms[0];
  } else if (fallback) {
    pick = rooms.find((r) => r.roomId === fallback.roomId && r.place === fallback.place);
  }
  if (!pick) throw errors.W12();
  const { place, storage, roomId } = pick;
  const session = await storage.read((q) => getSession(q, workerSessionId(workerId, roomId)));
  if (!session) throw errors.W12();
  return { place, storage, session };
}

/**
 * A session by id: this connection's own legacy and implicit sessions and the sessions it was
 * given first (their place is known), then every place this app can read now.
 */
export async function sessionById(env: ToolEnv, sessionId: string): Promise<FoundSession | null> {
  const { places } = env.services;
  const own = [...env.conn.legacySessions, ...env.conn.tokens.keys()].map(splitPlaceKey).find((k) => k.id === sessionId);
  const candidates = own ? [await places.get(own.place)] : await places.reachable();
  for (const storage of candidates) {
    const session = await storage.read((q) => getSession(q, sessionId));
    if (session) return { place: storage.place, storage, session };
  }
  return null;
}

async function checkedWorker(env: ToolEnv, found: FoundSession, options: ResolveOptions): Promise<CallIdentity> {
  const { bindings } = env.services;
  const { place, storage, session } = found;
  const key = sessionKeyOf(place, session);
  const hadToken = env.conn.tokens.has(key);
  if (session.ended_by === 'person' && bindings.heldWhenEndedByPerson(env.conn, key)) throw errors.W15();
  if (hadToken && !bindings.holds(env.conn, key)) throw errors.W13();
  if (!hadToken || session.ended_at) throw errors.W12();
  await storage.read((q) => checkRoom(q, session.room_id, options));
  env.services.touchSession(place, session.session_id);
  return { kind: 'worker', place, storage, roomId: session.room_id, session, actor: actorOf(session) };
}

async function checkedLegacy(env: ToolEnv, found: FoundSession | null, args: IdentityArgs, options: ResolveOptions): Promise<CallIdentity> {
  const requested = args.agent_session_id!;
  const session = found?.session;
  const owned = found && env.conn.ownsLegacySession(sessionKeyOf(found.place, found.session));
  if (!found || !session || (!session.ended_at && !owned)) throw errors.W17(requested);
  if (session.ended_at) throw errors.W18(requested, session.ended_at);
  if (args.room_id !== undefined && args.room_id.trim() !== session.room_id) {
    throw errors.W19(requested, session.room_id, args.room_id.trim());
  }
  if (options.write && session.session_kind === 'controller') throw errors.W20();
  await found.storage.read((q) => checkRoom(q, session.room_id, options));
  env.services.touchSession(found.place, session.session_id);
  return { kind: 'legacy', place: found.place, storage: found.storage, roomId: session.room_id, session, actor: actorOf(session) };
}

/** The live durable worker sessions in `room` that this connection holds. */
export async function heldWorkerSessions(env: ToolEnv, q: Queryable, room: Pick<RoomRef, 'place' | 'roomId'>): Promise<SessionRow[]> {
  const held: SessionRow[] = [];
  for (const key of [...env.conn.tokens.keys()]) {
    const { place, id } = splitPlaceKey(key);
    if (place !== room.place || !env.services.bindings.holds(env.conn, key)) continue;
    const session = await getSession(q, id);
    if (session?.worker_id && session.room_id === room.roomId && !session.ended_at) held.push(session);
  }
  return held;
}

/** The newest live legacy session this connection registered in `room` (workers only, unless `anyKind`). */
export async function newestLiveLegacySession(
  env: ToolEnv, q: Queryable, room: Pick<RoomRef, 'place' | 'roomId'>, anyKind = false,
): Promise<SessionRow | null> {
  const legacySessions = [...env.conn.legacySessions];
  for (let i = legacySessions.length - 1; i >= 0; i--) {
    const { place, id } = splitPlaceKey(legacySessions[i]);
    if (place !== room.place) continue;
    const session = await getSession(q, id);
    if (session && session.room_id === room.roomId && !session.ended_at && (anyKind || session.session_kind === 'worker')) return session;
  }
  return null;
}

/**
 * Who a read or a wait is for (mcp-tools.md §5.3, routing identity): the acting session,
 * else this connection's live legacy or implicit session in the room; null with none.
 */
export async function readingSession(env: ToolEnv, q: Queryable, room: Pick<RoomRef, 'place' | 'roomId'>, acting: SessionRow | null): Promise<SessionRow | null> {
  return acting ?? (await newestLiveLegacySession(env, q, room, true)) ?? (await liveImplicitSession(env, q, room));
}

/** This connection's implicit session in `room`, while it is live. */
export async function liveImplicitSession(env: ToolEnv, q: Queryable, room: Pick<RoomRef, 'place' | 'roomId'>): Promise<SessionRow | null> {
  const existing = env.conn.implicitSessions.get(placeKey(room.place, room.roomId));
  const session = existing ? await getSession(q, existing) : undefined;
  return session && !session.ended_at ? session : null;
}

/** Inside the write's transaction; the connection adopts the session only once it commits. */
async function createImplicitSession(tx: Tx, env: ToolEnv, room: RoomRef, owner: OwnerIdentity, host: SessionHost): Promise<SessionRow> {
  const ide = ideLabelFor(env.conn);
  const session = await createLegacySession(tx, {
    roomId: room.roomId,
    requestedName: null,
    defaultKey: `conn:${env.conn.id}`,
    ownerLabel: owner.ownerLabel,
    ownerSlug: owner.ownerSlug,
    ideLabel: ide.ideLabel,
    runtime: ide.runtime,
    sessionKind: 'worker',
    sessionId: env.conn.nextImplicitSessionId,
    host,
  });
  tx.afterCommit(() => {
    env.conn.nextImplicitSessionId = newLegacySessionId();
    env.conn.implicitSessions.set(placeKey(room.place, room.roomId), session.session_id);
    env.services.bindings.bindOwned(env.conn, sessionKeyOf(room.place, session));
  });
  return session;
}
