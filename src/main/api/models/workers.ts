// Agent sessions as the roster and presence chips show them (the contract's
// AgentSession): the domain's roster entry with its place, online from the MCP hub (this
// app's bindings, or another app's heartbeat in a team database), the machine that holds
// it in a team's room, held tasks by title.
import { mapInOrder } from '../../domain/inOrder';
import type { AgentSession } from '../../../shared/model/workers';
import type { App } from '../../app';
import { appErrors } from '../../domain/errors';
import { ownerAttribution } from '../../domain/identity/labels';
import { parseNumberedId } from '../../domain/ids';
import { listAgents, type RosterEntry } from '../../domain/sessions/roster';
import { getSession } from '../../domain/sessions/sessions';
import { LOCAL_PLACE } from '../../store/places';
import type { Queryable } from '../../store/port';
import { getTaskRow } from '../../store/taskQueries';
import { lastWakeOf } from './wakes';

export async function toAgentSession(app: App, q: Queryable, place: string, entry: RosterEntry): Promise<AgentSession> {
  const tasksHeld = [];
  for (const id of entry.tasksHeld) {
    const number = parseNumberedId('task', id);
    const task = number === null ? undefined : await getTaskRow(q, entry.roomId, number);
    if (task) tasksHeld.push({ number: task.number, title: task.title, status: task.status });
  }
  const presence = { session_id: entry.sessionId, ended_at: entry.endedAt, host_id: entry.hostId, released_at: entry.releasedAt, host_heard_at: entry.hostHeardAt };
  return {
    sessionId: entry.sessionId,
    agentKey: entry.agentKey,
    roomId: entry.roomId,
    place,
    machine: place === LOCAL_PLACE ? null : entry.hostLabel,
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
  };
}

/** Agent sessions of one room or all of one place, online first (then the roster's order: live, most recently seen). */
export async function agentSessions(app: App, q: Queryable, place: string, roomId?: string): Promise<AgentSession[]> {
  const sessions = await mapInOrder(await listAgents(q, { roomId: roomId ?? null }), (entry) => toAgentSession(app, q, place, entry));
  return onlineFirst(sessions);
}

export const onlineFirst = (sessions: AgentSession[]) => [...sessions.filter((s) => s.online), ...sessions.filter((s) => !s.online)];

/** A session the person may act on: an agent (worker) session; controllers stay off the roster. */
export async function requireAgentSession(q: Queryable, sessionId: string) {
  const session = await getSession(q, sessionId);
  if (!session || session.session_kind !== 'worker') throw appErrors.notFound('Agent session');
  return session;
}

export async function agentSession(app: App, q: Queryable, place: string, sessionId: string): Promise<AgentSession> {
  const session = await requireAgentSession(q, sessionId);
  const entry = (await listAgents(q, { roomId: session.room_id })).find((e) => e.sessionId === sessionId);
  if (!entry) throw appErrors.notFound('Agent session');
  return toAgentSession(app, q, place, entry);
}
