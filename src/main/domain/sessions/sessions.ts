// Agent sessions (worker-handles.md §6–10, data-model.md §5.5): a worker's or legacy
// connection's presence in one room — first registration, reconnect, end, and the
// person actions rename and remove. Bindings and tokens live in the MCP layer, not here.
import type { Queryable, Tx } from '../../store/port';
import {
  bindSessionRow as bindRow,
  bumpBindingEpoch,
  endSessionRow,
  selectBindingEpoch,
  upsertAppHost,
  findLiveWorkerSessionsByNameKey,
  getSessionRow,
  listRoomSessionRows,
  renameSessionRow,
  reviveSessionRow,
  type EndedBy,
  type SessionKind,
  type SessionRow,
  type WorkerRow,
} from '../../store/sessionQueries';
import { actorShortName, type Actor, type AgentActor } from '../actor';
import { appErrors } from '../errors';
import { legacyAgentKey, newLegacySessionId, workerSessionId } from '../identity/agentKeys';
import { codename } from '../identity/codenames';
import { normalizeHandle } from '../identity/handles';
import { actorLabel, runtimeSlug } from '../identity/labels';
import { cleanDisplayName } from '../identity/names';
import { peopleOfRoom, personNameError } from '../identity/personNames';
import { postSystemEvent } from '../systemEvents';
import { releaseWorkLeasesOfSession } from '../tasks/workLease';
import { insertSessionWithFreeName, type UnnamedSessionRow } from './roomNames';

export type { EndedBy, SessionKind, SessionRow } from '../../store/sessionQueries';
// The roster and the agent_session object live in roster.ts; callers reach them here too.
export { listAgents, toAgentSessionObject, type AgentSessionObject, type RosterEntry } from './roster';

/** Presence text set by registration and by every reconnect. */
export const AVAILABLE_IN_ROOM = 'available in room';

/** The actor a session's writes are made as. */
export function sessionActor(session: SessionRow): AgentActor {
  return {
    kind: 'agent',
    label: session.actor_label,
    agentKey: session.agent_key,
    sessionId: session.session_id,
    displayName: session.display_name,
  };
}

export function getSession(q: Queryable, sessionId: string): Promise<SessionRow | undefined> {
  return getSessionRow(q, sessionId);
}

async function mustGetSession(q: Queryable, sessionId: string): Promise<SessionRow> {
  const session = await getSessionRow(q, sessionId);
  if (!session) throw appErrors.notFound('Agent session');
  return session;
}

/** Every session of a room: controllers and ended sessions included, oldest first. */
export function listRoomSessions(q: Queryable, roomId: string): Promise<SessionRow[]> {
  return listRoomSessionRows(q, roomId);
}

/**
 * Live durable worker sessions in the room whose name equals `name` after handle
 * normalisation. The caller keeps only those its connection holds (recovery, name notice).
 */
export function findHeldNameMatches(q: Queryable, roomId: string, name: string): Promise<SessionRow[]> {
  return findLiveWorkerSessionsByNameKey(q, roomId, normalizeHandle(name));
}

/** The app (installation) whose connection holds a session, and its machine's name. */
export interface SessionHost {
  readonly id: string;
  readonly label: string;
}

/** Where a new session opens, as both kinds of registration give it. */
interface SessionPlace {
  roomId: string;
  sessionKind?: SessionKind;
  repoBranch?: string | null;
  /** The app whose connection takes the session: bound to it (a new binding epoch) in the same write. */
  host?: SessionHost;
}

/**
 * Binds the session to a connection of `host`: a new binding epoch (fencing the holder before
 * it, on any machine), and the host heard from now (so other apps show it online at once).
 */
async function bindSessionRow(tx: Tx, sessionId: string, host: SessionHost): Promise<number> {
  await upsertAppHost(tx, host.id, host.label);
  return bindRow(tx, sessionId, host.id, host.label);
}

/** The session's binding epoch: a fenced write checks it is still the one its connection was given. */
export function bindingEpoch(q: Queryable, sessionId: string): Promise<number> {
  return selectBindingEpoch(q, sessionId);
}

/** Who a new session is; the rest of its row is the same for every new session. */
type SessionIdentity = Pick<UnnamedSessionRow, 'session_id' | 'worker_id' | 'agent_key' | 'owner_label' | 'ide_label' | 'runtime'>;

/** "Juniper joined the room.", or, when the name it wanted was taken, both names. */
function joinEventText(session: SessionRow, takenName: string | null): string {
  return takenName === null
    ? `${session.display_name} joined the room.`
    : `${session.display_name} joined the room (it asked for the name ${takenName}, which is taken).`;
}

/**
 * Stores a new session under a free name (idle, "available in room"), announces a worker
 * joining, and returns the row. A name the agent asked for that is a person's there (or the
 * app's) is refused, saying why; a codename that is one is passed over.
 */
async function insertNamedSession(tx: Tx, place: SessionPlace, identity: SessionIdentity, preferredName: string, requested: boolean): Promise<SessionRow> {
  const people = await peopleOfRoom(tx, place.roomId, [identity.owner_label]);
  const clash = requested ? people.clash(preferredName) : null;
  if (clash) throw personNameError(preferredName, clash, 'display_name');
  const row: UnnamedSessionRow = {
    ...identity,
    room_id: place.roomId,
    session_kind: place.sessionKind ?? 'worker',
    repo_branch: place.repoBranch ?? null,
    status: 'idle',
    status_text: AVAILABLE_IN_ROOM,
    created_at: tx.now,
    updated_at: tx.now,
    last_seen_at: tx.now,
  };
  await insertSessionWithFreeName(tx, row, preferredName, (name) => people.clash(name) !== null);
  const epoch = place.host ? await bindSessionRow(tx, row.session_id, place.host) : undefined;
  const session = await mustGetSession(tx, row.session_id);
  const takenName = session.display_name === preferredName ? null : preferredName;
  // Controllers are read-only observers and stay off the roster, so they join silently.
  if (session.session_kind === 'worker') {
    await postSystemEvent(tx, session.room_id, joinEventText(session, takenName), sessionActor(session));
  }
  tx.emit({ type: 'worker.changed', roomId: session.room_id, sessionId: session.session_id, change: 'registered', epoch });
  return session;
}

export interface WorkerSessionInput extends SessionPlace {
  worker: WorkerRow;
}

/**
 * A worker's first registration in a room: the worker's name unless it is taken there,
 * then a clash codename; presence idle "available in room"; "<name> joined the room.".
 */
export function insertWorkerSession(tx: Tx, input: WorkerSessionInput): Promise<SessionRow> {
  const { worker } = input;
  return insertNamedSession(
    tx,
    input,
    {
      session_id: workerSessionId(worker.worker_id, input.roomId),
      worker_id: worker.worker_id,
      agent_key: worker.agent_key,
      owner_label: worker.owner_label,
      ide_label: worker.ide_label,
      runtime: worker.runtime,
    },
    worker.display_name,
    worker.display_name !== codename(worker.worker_id).displayName,
  );
}

/**
 * A reconnect: clears an end (by disconnect or a person), touches last_seen_at, and
 * sets presence idle "available in room". It never renames and posts nothing.
 */
export async function reviveOrTouchSession(tx: Tx, sessionId: string, repoBranch?: string | null, host?: SessionHost): Promise<SessionRow> {
  const before = await mustGetSession(tx, sessionId);
  await reviveSessionRow(tx, sessionId, repoBranch, AVAILABLE_IN_ROOM);
  const epoch = host ? await bindSessionRow(tx, sessionId, host) : undefined;
  tx.emit({ type: 'worker.changed', roomId: before.room_id, sessionId, change: 'updated', epoch });
  return mustGetSession(tx, sessionId);
}

/** Persist step of connect (worker-handles.md §6 step 7): insert on first registration, else revive. */
export async function openWorkerSession(tx: Tx, input: WorkerSessionInput): Promise<{ session: SessionRow; firstRegistration: boolean }> {
  const existing = await getSessionRow(tx, workerSessionId(input.worker.worker_id, input.roomId));
  if (existing) return { session: await reviveOrTouchSession(tx, existing.session_id, input.repoBranch, input.host), firstRegistration: false };
  return { session: await insertWorkerSession(tx, input), firstRegistration: true };
}

export interface LegacySessionInput extends SessionPlace {
  requestedName?: string | null;
  /** Key of the connection's default codename: "conn:<connection id>". */
  defaultKey: string;
  ownerLabel: string;
  ownerSlug: string;
  ideLabel: string;
  runtime?: string | null;
  /** A `local_<uuid v4>` chosen in advance (a connection announces its implicit session's agent key before creating it). */
  sessionId?: string;
}

/** The name a legacy or implicit session asks for: the requested one, else the connection's codename. */
export function legacyPreferredName(requestedName: string | null | undefined, defaultKey: string): string {
  return cleanDisplayName(requestedName) ?? codename(defaultKey).displayName;
}

/** A legacy or implicit session (worker-handles.md §10): `local_<uuid>`, legacy agent key, same clash rule. */
export function createLegacySession(tx: Tx, input: LegacySessionInput): Promise<SessionRow> {
  const sessionId = input.sessionId ?? newLegacySessionId();
  return insertNamedSession(
    tx,
    input,
    {
      session_id: sessionId,
      worker_id: null,
      agent_key: legacyAgentKey(input.ownerSlug, sessionId),
      owner_label: input.ownerLabel,
      ide_label: input.ideLabel,
      runtime: input.runtime?.trim() || runtimeSlug(input.ideLabel),
    },
    legacyPreferredName(input.requestedName, input.defaultKey),
    cleanDisplayName(input.requestedName) !== null,
  );
}

/**
 * Ends a session; a second end changes nothing and reports `alreadyEnded`. Leases are
 * kept. Null for an unknown session (e.g. its room was deleted), so closing a connection
 * that owned several sessions still ends the others. A person's end also fences whichever
 * connection holds it, on any machine (a new binding epoch).
 */
export async function endSession(
  tx: Tx,
  sessionId: string,
  endedBy: EndedBy,
): Promise<{ session: SessionRow; alreadyEnded: boolean } | null> {
  const before = await getSessionRow(tx, sessionId);
  if (!before) return null;
  if (before.ended_at !== null) return { session: before, alreadyEnded: true };
  await endSessionRow(tx, sessionId, endedBy);
  const epoch = endedBy === 'person' ? await bumpBindingEpoch(tx, sessionId) : undefined;
  tx.emit({ type: 'worker.changed', roomId: before.room_id, sessionId, change: 'ended', epoch });
  return { session: await mustGetSession(tx, sessionId), alreadyEnded: false };
}

/**
 * A person renames a session in the app: cleaned, unique in the room, actor label
 * rebuilt. Old messages keep the sender they were stored with. The room hears of it, and
 * the event concerns the renamed agent (its mentions now use the new name).
 */
export async function renameSession(tx: Tx, sessionId: string, newName: string, by: Actor): Promise<SessionRow> {
  const before = await mustGetSession(tx, sessionId);
  const name = cleanDisplayName(newName);
  if (name === null) throw appErrors.invalidInput('An agent name must be 1–64 characters.');
  const clash = (await peopleOfRoom(tx, before.room_id, [before.owner_label, ...(by.kind === 'person' ? [by.label] : [])])).clash(name);
  if (clash) throw personNameError(name, clash, 'name');
  const outcome = await renameSessionRow(tx, sessionId, {
    displayName: name,
    nameKey: normalizeHandle(name),
    actorLabel: actorLabel(name, before.owner_label, before.ide_label),
  });
  if (outcome === 'name_taken') throw appErrors.nameTaken();
  if (name !== before.display_name) {
    await postSystemEvent(tx, before.room_id, `${actorShortName(by)} renamed ${before.display_name} to ${name}.`, by, [
      { agentKey: before.agent_key, role: 'renamed', taskNumber: null },
    ]);
  }
  tx.emit({ type: 'worker.changed', roomId: before.room_id, sessionId, change: 'renamed' });
  return mustGetSession(tx, sessionId);
}

/**
 * A person removes an agent from its room: the session ends (by a person) and its work
 * leases in that room are released, so those tasks go back to accepted. Removing an
 * agent that already ended (e.g. disconnected) still releases its work.
 */
export async function removeFromRoom(tx: Tx, sessionId: string, person: Actor): Promise<SessionRow> {
  const ended = await endSession(tx, sessionId, 'person');
  if (!ended) throw appErrors.notFound('Agent session');
  const { room_id: roomId, display_name: name, agent_key: agentKey } = ended.session;
  await postSystemEvent(tx, roomId, `${actorShortName(person)} removed ${name} from the room.`, person, [{ agentKey, role: 'removed', taskNumber: null }]);
  await releaseWorkLeasesOfSession(tx, ended.session.room_id, ended.session.session_id, person);
  return ended.session;
}
