// Agent sessions as the roster and presence chips show them (the contract's
// AgentSession): the domain's roster entry, online from the MCP hub, held tasks by title.
import { mapInOrder } from '../../domain/inOrder';
import { compareAgents, type AgentSession, type Meter } from '../../../shared/model/workers';
import { reachabilityOf } from '../../delivery/reachabilityOf';
import { allSessionMeters, roomMeters } from './delivery';
import type { App } from '../../app';
import { appErrors } from '../../domain/errors';
import { ownerAttribution } from '../../domain/identity/labels';
import { parseNumberedId } from '../../domain/ids';
import { listAgents, type RosterEntry } from '../../domain/sessions/roster';
import { getSession } from '../../domain/sessions/sessions';
import type { Queryable } from '../../store/port';
import { getTaskRow } from '../../store/taskQueries';
import { lastWakeOf } from './wakes';

/**
 * One roster entry; `meters` holds the meters by session id (by "<room>\n<session>" when
 * `keyed`), read for the whole list at once; without it, the entry's room is read.
 */
export async function toAgentSession(app: App, q: Queryable, entry: RosterEntry, meters?: ReadonlyMap<string, Meter>, keyed = false): Promise<AgentSession> {
  const tasksHeld = [];
  for (const id of entry.tasksHeld) {
    const number = parseNumberedId('task', id);
    const task = number === null ? undefined : await getTaskRow(q, entry.roomId, number);
    if (task) tasksHeld.push({ number: task.number, title: task.title, status: task.status });
  }
  return {
    sessionId: entry.sessionId,
    agentKey: entry.agentKey,
    roomId: entry.roomId,
    roomName: entry.roomName,
    name: entry.displayName,
    ide: entry.ideLabel || null,
    owner: entry.ownerLabel ? ownerAttribution(entry.ownerLabel) : null,
    online: !entry.ended && app.hub.isOnline(entry.sessionId),
    ended: entry.ended,
    status: entry.status,
    statusText: entry.statusText,
    lastSeenAt: entry.lastSeenAt,
    tasksHeld,
    lastWake: await lastWakeOf(app, q, entry.sessionId),
    reachability: await reachabilityOf(q, app.hub.delivery, { session_id: entry.sessionId, worker_id: entry.workerId, room_id: entry.roomId, ended_at: entry.endedAt }),
    meter: (meters ?? (await roomMeters(app, q, entry.roomId)).sessions).get(keyed ? `${entry.roomId}\n${entry.sessionId}` : entry.sessionId) ?? { todayBytes: 0, totalBytes: 0 },
  };
}

/** Agent sessions of one room or all, by reachability (listening first), then most recently seen. */
export async function agentSessions(app: App, q: Queryable, roomId?: string): Promise<AgentSession[]> {
  const meters = roomId === undefined ? await allSessionMeters(app, q) : (await roomMeters(app, q, roomId)).sessions;
  const sessions = await mapInOrder(await listAgents(q, { roomId: roomId ?? null }), (entry) => toAgentSession(app, q, entry, meters, roomId === undefined));
  return sessions.sort(compareAgents);
}

/** A session the person may act on: an agent (worker) session; controllers stay off the roster. */
export async function requireAgentSession(q: Queryable, sessionId: string) {
  const session = await getSession(q, sessionId);
  if (!session || session.session_kind !== 'worker') throw appErrors.notFound('Agent session');
  return session;
}

export async function agentSession(app: App, q: Queryable, sessionId: string): Promise<AgentSession> {
  const session = await requireAgentSession(q, sessionId);
  const entry = (await listAgents(q, { roomId: session.room_id })).find((e) => e.sessionId === sessionId);
  if (!entry) throw appErrors.notFound('Agent session');
  return toAgentSession(app, q, entry);
}
