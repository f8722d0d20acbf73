// The agents roster: every agent the app knows, the ones a mention reaches soonest first, managed
// ones counted, ended ones under "Past agents"; filtered to one room inside a room's Agents tab,
// or by a room picker on the Agents page.
import { useState } from 'react';
import { compareAgents } from '../../../../shared/model/workers';
import { TOKEN_ESTIMATE_NOTE } from '../../../../shared/tokens';
import type { AgentSession } from '../../../../shared/types';
import { useAppEvents } from '../../api/useAppEvents';
import { useQuery } from '../../api/useQuery';
import { useAppData, useRoomTitle } from '../../app/appData';
import { useNavigation } from '../../app/navigation';
import { EmptyState, ErrorState, Loading } from '../../components/StateViews';
import { AgentRow, type AgentAction } from './AgentRow';
import { AgentDialogs } from './AgentDialogs';
import { RoomOptions } from '../sidebar/RoomItem';
import { isEventOf, LOCAL, refOf, roomKey, sameRoom, type RoomRef } from '../../lib/rooms';

/** Who a message reaches soonest first (listening, working, managed, idle, …, offline), then the most recently seen. */
export function sortAgents(agents: AgentSession[]): AgentSession[] {
  return [...agents].sort(compareAgents);
}

/** "3 agents: 1 online, 2 managed" — managed agents count (issue 35); ended ones are past agents, not counted. */
export function rosterCount(total: number, online: number, managed: number): string {
  const parts = [`${online} online`, ...(managed > 0 ? [`${managed} managed`] : [])];
  return `${total} ${total === 1 ? 'agent' : 'agents'}: ${parts.join(', ')}`;
}

/** Every agent, or (`room`) one room's: by id and place. */
export function AgentsRoster({ room: inRoom }: { room?: RoomRef }) {
  const { rooms } = useAppData();
  const { navigate } = useNavigation();
  const all = useQuery('workers.list', {}, (e) => e.type === 'worker.changed' || e.type === 'task.changed');
  // On the Agents page the managed agents have their own cards above: list each agent once (issue 27),
  // and count them (issue 35). In a room they are listed with the others.
  const managed = useQuery('agents.list', {}, (e) => e.type === 'agent.changed');
  const [filter, setFilter] = useState<string>('');
  const [acting, setActing] = useState<{ agent: AgentSession; action: AgentAction } | null>(null);
  // A wake, a change of reachability or of the meter changes only those fields: patch them in place rather than refetch the roster.
  useAppEvents((e) => {
    const of = (a: AgentSession, sessionId: string) => a.sessionId === sessionId && isEventOf(e, refOf({ id: a.roomId, place: a.place }));
    if (e.type === 'worker.woken') all.setData((list) => list.map((a) => (of(a, e.sessionId) ? { ...a, lastWake: e.wake } : a)));
    if (e.type === 'worker.reachability') all.setData((list) => list.map((a) => (of(a, e.sessionId) ? { ...a, reachability: e.reachability } : a)));
    if (e.type === 'meter.changed') {
      const meters = new Map(e.sessions.map((s) => [s.sessionId, s.meter]));
      all.setData((list) => list.map((a) => (isEventOf(e, refOf({ id: a.roomId, place: a.place })) && meters.has(a.sessionId) ? { ...a, meter: meters.get(a.sessionId)! } : a)));
    }
  });

  // Every hook before the early returns: React needs the same hooks, in order, on each render.
  const roomName = useRoomTitle();

  if (all.status === 'loading') return <Loading label="Loading agents…" />;
  if (all.status === 'error' && !all.data) return <ErrorState message={all.error} onRetry={all.reload} />;

  const managedSessions = new Set((managed.data ?? []).map((m) => m.sessionId));
  const agents = inRoom ? (all.data ?? []) : (all.data ?? []).filter((a) => !managedSessions.has(a.sessionId));
  const room = inRoom ?? (filter ? (rooms.data ?? []).map(refOf).find((r) => roomKey(r) === filter) : undefined);
  const inView = sortAgents(room ? agents.filter((a) => sameRoom(room, a)) : agents);
  // Ended sessions (disconnected, or removed from the room) are past agents, out of the counts (issue 35).
  const shown = inView.filter((a) => !a.ended);
  const past = inView.filter((a) => a.ended);
  const title = (a: AgentSession) => roomName(a, a.roomName);
  const roomsOf = (agent: AgentSession) => [...new Set([title(agent), ...agents.filter((a) => a.agentKey === agent.agentKey && !a.ended).map(title)])];
  // Managed agents count as agents of the roster: their cards above on the Agents page, their rows in a room.
  const managedHere = inRoom
    ? shown.filter((a) => managedSessions.has(a.sessionId)).length
    : (managed.data ?? []).filter((m) => !room || (m.roomId === room.roomId && room.place === LOCAL)).length;
  const online = shown.filter((a) => a.online && !managedSessions.has(a.sessionId)).length;
  const total = inRoom ? shown.length : shown.length + managedHere;

  return (
    <div className="roster">
      <div className="roster-toolbar">
        <p className="muted" role="status">
          {total === 0 ? '' : rosterCount(total, online, managedHere)}
        </p>
        {shown.length > 0 && <p className="muted roster-note">{TOKEN_ESTIMATE_NOTE}</p>}
        {!inRoom && (
          <label className="inline-field">
            <span>Room</span>
            <select value={filter} onChange={(e) => setFilter(e.target.value)}>
              <option value="">All rooms</option>
              <RoomOptions rooms={rooms.data ?? []} />
            </select>
          </label>
        )}
      </div>
      {total === 0 ? (
        <EmptyState
          icon="bot"
          title={room ? 'No agents in this room yet' : 'No agents yet'}
          actions={
            <button type="button" className="btn btn-primary" onClick={() => navigate({ view: 'connect' })}>
              Connect agents
            </button>
          }
        >
          Agents appear here once they connect to LetAgents and join a room.
        </EmptyState>
      ) : (
        shown.length > 0 && (
          <ul className="agent-list" aria-label="Agents">
            {shown.map((agent) => (
              <AgentRow key={`${agent.place}\n${agent.sessionId}`} agent={agent} rooms={roomsOf(agent)} showRoom={!inRoom} onAction={(a, action) => setActing({ agent: a, action })} />
            ))}
          </ul>
        )
      )}
      {past.length > 0 && (
        <details className="roster-past">
          <summary>
            Past agents ({past.length}): disconnected or removed
          </summary>
          <ul className="agent-list" aria-label="Past agents">
            {past.map((agent) => (
              <AgentRow key={`${agent.place}\n${agent.sessionId}`} agent={agent} rooms={roomsOf(agent)} showRoom={!inRoom} onAction={(a, action) => setActing({ agent: a, action })} />
            ))}
          </ul>
        </details>
      )}
      {acting && <AgentDialogs agent={acting.agent} action={acting.action} onDone={() => { setActing(null); all.reload(); }} />}
    </div>
  );
}
