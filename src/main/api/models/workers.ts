// Agent sessions as the roster and presence chips show them (the contract's
// AgentSession): the domain's roster entry, online from the MCP hub, held tasks by title.
import type { AgentSession } from '../../../shared/model/workers';
import type { App } from '../../app';
import { appErrors } from '../../domain/errors';
import { ownerAttribution } from '../../domain/identity/labels';
import { parseNumberedId } from '../../domain/ids';
import { listAgents, type RosterEntry } from '../../domain/sessions/roster';
import { getSession } from '../../domain/sessions/sessions';
import type { Db } from '../../store/database';
import { getTaskRow } from '../../store/taskQueries';
import { lastWakeOf } from './wakes';

export function toAgentSession(app: App, db: Db, entry: RosterEntry): AgentSession {
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
  };
}

/** Agent sessions of one room or all, online first (then the roster's order: live, most recently seen). */
export function agentSessions(app: App, db: Db, roomId?: string): AgentSession[] {
  const sessions = listAgents(db, { roomId: roomId ?? null }).map((entry) => toAgentSession(app, db, entry));
  return [...sessions.filter((s) => s.online), ...sessions.filter((s) => !s.online)];
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
