// Agent sessions as the roster and presence chips show them (the contract's
// AgentSession): the domain's roster entry, online from the MCP hub, held tasks by title.
import { compareAgents, type AgentSession, type Meter } from '../../../shared/model/workers';
import { reachabilityOf } from '../../delivery/reachabilityOf';
import { allSessionMeters, roomMeters } from './delivery';
import type { App } from '../../app';
import { appErrors } from '../../domain/errors';
import { ownerAttribution } from '../../domain/identity/labels';
import { parseNumberedId } from '../../domain/ids';
import { listAgents, type RosterEntry } from '../../domain/sessions/roster';
import { getSession } from '../../domain/sessions/sessions';
import type { Db } from '../../store/database';
import { getTaskRow } from '../../store/taskQueries';
import { lastWakeOf } from './wakes';

export function toAgentSession(app: App, db: Db, entry: RosterEntry, meters: ReadonlyMap<string, Meter> = roomMeters(app, db, entry.roomId).sessions, keyed = false): AgentSession {
  const tasksHeld = entry.tasksHeld.flatMap((id) => {
    const number = parseNumberedId('task', id);
    const task = number === null ? undefined : getTaskRow(db, entry.roomId, number);
    return task ? [{ number: task.number, title: task.title, status: task.status }] : [];
  });
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
    lastWake: lastWakeOf(app, db, entry.sessionId),
    reachability: reachabilityOf(db, app.hub.delivery, { session_id: entry.sessionId, worker_id: entry.workerId, room_id: entry.roomId, ended_at: entry.endedAt }),
    meter: meters.get(keyed ? `${entry.roomId}\n${entry.sessionId}` : entry.sessionId) ?? { todayBytes: 0, totalBytes: 0 },
  };
}



/** Agent sessions of one room or all, by reachability (listening first), then most recently seen. */
export function agentSessions(app: App, db: Db, roomId?: string): AgentSession[] {
  const meters = roomId === undefined ? allSessionMeters(app, db) : roomMeters(app, db, roomId).sessions;
  return listAgents(db, { roomId: roomId ?? null }).map((entry) => toAgentSession(app, db, entry, meters, roomId === undefined)).sort(compareAgents);
}

/** A session the person may act on: an agent (worker) session; controllers stay off the roster. */
export function requireAgentSession(db: Db, sessionId: string) {
  const session = getSession(db, sessionId);
  if (!session || session.session_kind !== 'worker') throw appErrors.notFound('Agent session');
  return session;
}

export function agentSession(app: App, db: Db, sessionId: string): AgentSession {
  const session = requireAgentSession(db, sessionId);
  const entry = listAgents(db, { roomId: session.room_id }).find((e) => e.sessionId === sessionId);
  if (!entry) throw appErrors.notFound('Agent session');
  return toAgentSession(app, db, entry);
}
