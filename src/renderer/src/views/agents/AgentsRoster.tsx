// The agents roster: every agent the app knows, the ones a mention reaches soonest first;
// filtered to one room inside a room's Agents tab, or by a room picker on the Agents page.
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
import { isEventOf, refOf, roomKey, sameRoom, type RoomRef } from '../../lib/rooms';

/** Who a message reaches soonest first (listening, working, managed, idle, …, offline), then the most recently seen. */
export function sortAgents(agents: AgentSession[]): AgentSession[] {
  return [...agents].sort(compareAgents);
}

/** Every agent, or (`room`) one room's: by id and place. */
export function AgentsRoster({ room: inRoom }: { room?: RoomRef }) {
  const { rooms } = useAppData();
  const { navigate } = useNavigation();
  const all = useQuery('workers.list', {}, (e) => e.type === 'worker.changed' || e.type === 'task.changed');
  // On the Agents page the managed agents have their own cards above: list each agent once (issue 27).
  const managed = useQuery('agents.list', inRoom ? null : {}, (e) => e.type === 'agent.changed');
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

  if (all.status === 'loading') return <Loading label="Loading agents…" />;
  if (all.status === 'error' && !all.data) return <ErrorState message={all.error} onRetry={all.reload} />;

  const managedSessions = new Set((managed.data ?? []).map((m) => m.sessionId));
  const agents = (all.data ?? []).filter((a) => !managedSessions.has(a.sessionId));
  const room = inRoom ?? (filter ? (rooms.data ?? []).map(refOf).find((r) => roomKey(r) === filter) : undefined);
  const shown = sortAgents(room ? agents.filter((a) => sameRoom(room, a)) : agents);
  const roomName = useRoomTitle();
  const title = (a: AgentSession) => roomName(a, a.roomName);
  const roomsOf = (agent: AgentSession) => [...new Set([title(agent), ...agents.filter((a) => a.agentKey === agent.agentKey && !a.ended).map(title)])];
  const online = shown.filter((a) => a.online && !a.ended).length;

  return (
    <div className="roster">
      <div className="roster-toolbar">
        <p className="muted" role="status">
          {shown.length === 0 ? '' : `${online} online · ${shown.length} ${shown.length === 1 ? 'agent' : 'agents'}`}
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
      {shown.length === 0 ? (
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
        <ul className="agent-list">
          {shown.map((agent) => (
            <AgentRow key={`${agent.place}\n${agent.sessionId}`} agent={agent} rooms={roomsOf(agent)} showRoom={!inRoom} onAction={(a, action) => setActing({ agent: a, action })} />
          ))}
        </ul>
      )}
      {acting && <AgentDialogs agent={acting.agent} action={acting.action} onDone={() => { setActing(null); all.reload(); }} />}
    </div>
  );
}
