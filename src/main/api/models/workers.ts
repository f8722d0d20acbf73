// Agent sessions as the roster and presence chips show them (the contract's
// AgentSession): the domain's roster entry with its place, online from the MCP hub (this
// app's bindings, or another app's heartbeat in a team database), the machine that holds
// it in a team's room, held tasks by title.
import { mapInOrder } from '../../domain/inOrder';
import { approvalWaitText, compareAgents, type AgentSession, type Meter } from '../../../shared/model/workers';
import { reachabilityOf } from '../../delivery/reachabilityOf';
import { placeKey } from '../../domain/placeKeys';
import { wakePathOf } from '../../mcp/wakePath';
import { allSessionMeters, roomMeters } from './delivery';
import type { AppParts } from '../appParts';
import { appErrors } from '../../domain/errors';
import { ownerAttribution } from '../../domain/identity/labels';
import { parseNumberedId } from '../../domain/ids';
import { listAgents, type RosterEntry } from '../../domain/sessions/roster';
import { getSession } from '../../domain/sessions/sessions';
import { getManagedMember, type ManagedMemberRow } from '../../store/managedAgentQueries';
import { LOCAL_PLACE } from '../../store/places';
import type { Queryable } from '../../store/port';
import { getTaskRow } from '../../store/taskQueries';
import { lastWakeOf } from './wakes';

/**
 * One roster entry of `place`; `meters` holds the meters by session id (by "<room>\n<session>"
 * when `keyed`), read for the whole list at once; without it, the entry's room is read.
 */
export async function toAgentSession(app: AppParts, q: Queryable, place: string, entry: RosterEntry, meters?: ReadonlyMap<string, Meter>, keyed = false): Promise<AgentSession> {
  const tasksHeld = [];
  for (const id of entry.tasksHeld) {
    const number = parseNumberedId('task', id);
    const task = number === null ? undefined : await getTaskRow(q, entry.roomId, number);
    if (task) tasksHeld.push({ number: task.number, title: task.title, status: task.status });
  }
  const presence = { session_id: entry.sessionId, ended_at: entry.endedAt, host_id: entry.hostId, released_at: entry.releasedAt, host_heard_at: entry.hostHeardAt };
  // A managed agent (of this app or, in a team room, another machine's): its machine is the one whose app runs it.
  const member = entry.workerId ? ((await getManagedMember(q, entry.workerId, entry.roomId)) ?? null) : null;
  const reached = await reachabilityAndWakePath(app, q, place, { ...presence, worker_id: entry.workerId, room_id: entry.roomId }, member);
  return {
    sessionId: entry.sessionId,
    agentKey: entry.agentKey,
    roomId: entry.roomId,
    place,
    machine: place === LOCAL_PLACE ? null : (member?.host_label ?? entry.hostLabel),
    roomName: entry.roomName,
    name: entry.displayName,
    ide: entry.ideLabel || null,
    owner: entry.ownerLabel ? ownerAttribution(entry.ownerLabel) : null,
    online: !entry.ended && app.hub.isOnline(place, presence),
    ended: entry.ended,
    status: entry.status,
    statusText: entry.statusText,
    lastSeenAt: entry.lastSeenAt,
    tasksHeld,
    lastWake: await lastWakeOf(app, q, place, entry.sessionId),
    ...reached,
    approvalWait: reached.reachability === 'managed' ? approvalWaitOf(entry.displayName, member) : null,
    meter: (meters ?? (await roomMeters(app, q, { place, roomId: entry.roomId })).sessions).get(keyed ? `${entry.roomId}\n${entry.sessionId}` : entry.sessionId) ?? { todayBytes: 0, totalBytes: 0 },
  };
}

/** What its member row says it waits for (a team room's managed agent; while its app is heard from). */
function approvalWaitOf(name: string, member: ManagedMemberRow | null): AgentSession['approvalWait'] {
  if (!member?.approval_tool || !member.approval_person || !member.approval_since) return null;
  const wait = { person: member.approval_person, tool: member.approval_tool, since: member.approval_since };
  return { ...wait, text: approvalWaitText(name, wait) };
}

/** Whether a mention reaches the session now, and how it will next (issue 26). */
async function reachabilityAndWakePath(app: AppParts, q: Queryable, place: string, session: Parameters<typeof reachabilityOf>[3], member: ManagedMemberRow | null) {
  const reachability = await reachabilityOf(q, app.hub.delivery, place, session, member);
  return { reachability, wakePath: wakePathOf(reachability, placeKey(place, session.session_id), app.hub.push, app.hub.delivery.pushes) };
}

/** Agent sessions of one room or all of one place, by reachability (listening first), then most recently seen. */
export async function agentSessions(app: AppParts, q: Queryable, place: string, roomId?: string): Promise<AgentSession[]> {
  const meters = roomId === undefined ? await allSessionMeters(app, q, place) : (await roomMeters(app, q, { place, roomId })).sessions;
  const sessions = await mapInOrder(await listAgents(q, { roomId: roomId ?? null }), (entry) => toAgentSession(app, q, place, entry, meters, roomId === undefined));
  return sessions.sort(compareAgents);
}

/** Agent sessions of every room of every place this app can read now, in roster order. */
export async function allAgentSessions(app: AppParts): Promise<AgentSession[]> {
  const all = [];
  for (const storage of await app.places.reachable()) all.push(...(await storage.read((q) => agentSessions(app, q, storage.place))));
  return inRosterOrder(all);
}

/** Sessions of several places in one list, in agentSessions' order. */
export const inRosterOrder = (sessions: AgentSession[]) => [...sessions].sort(compareAgents);

/** A session the person may act on: an agent (worker) session; controllers stay off the roster. */
export async function requireAgentSession(q: Queryable, sessionId: string) {
  const session = await getSession(q, sessionId);
  if (!session || session.session_kind !== 'worker') throw appErrors.notFound('Agent session');
  return session;
}

export async function agentSession(app: AppParts, q: Queryable, place: string, sessionId: string): Promise<AgentSession> {
  const session = await requireAgentSession(q, sessionId);
  const entry = (await listAgents(q, { roomId: session.room_id })).find((e) => e.sessionId === sessionId);
  if (!entry) throw appErrors.notFound('Agent session');
  return toAgentSession(app, q, place, entry);
}
