// What the app and agents see of sessions: the Agents roster (ui.md "Agents") and the
// agent_session object of mcp-tools.md §4. "Online" lives in memory, so callers pass it.
import type { Queryable } from '../../store/port';
import { listActiveWorkLeaseHolders, listRosterRows, type EndedBy, type SessionRow, type SessionStatus } from '../../store/sessionQueries';
import { taskId } from '../ids';

export interface RosterEntry {
  sessionId: string;
  roomId: string;
  roomName: string;
  /** True for a durable worker's session, false for legacy and implicit ones. */
  durable: boolean;
  workerId: string | null;
  displayName: string;
  actorLabel: string;
  agentKey: string;
  ideLabel: string;
  runtime: string;
  ownerLabel: string;
  status: SessionStatus;
  statusText: string;
  repoBranch: string | null;
  ended: boolean;
  endedAt: string | null;
  endedBy: EndedBy | null;
  /** Tasks whose active work lease this session's agent holds in its room, e.g. ["task_7"]. */
  tasksHeld: string[];
  lastSeenAt: string;
  /** The app holding (or that last held) the session and its machine's name; null before any did. */
  hostId: string | null;
  hostLabel: string | null;
  /** What presence needs for a session held by another app of a team: when it let go, and when that app last heartbeat. */
  releasedAt: string | null;
  hostHeardAt: string | null;
}

/** Every agent session (never controllers) of one room or all rooms: live first, then most recently seen. */
export async function listAgents(q: Queryable, filter: { roomId?: string | null } = {}): Promise<RosterEntry[]> {
  const roomId = filter.roomId ?? null;
  const held = new Map<string, string[]>();
  for (const lease of await listActiveWorkLeaseHolders(q, roomId)) {
    const key = `${lease.room_id}\n${lease.agent_key}`;
    const tasks = held.get(key);
    if (tasks) tasks.push(taskId(lease.task_number));
    else held.set(key, [taskId(lease.task_number)]);
  }
  return (await listRosterRows(q, roomId)).map((row) => ({
    sessionId: row.session_id,
    roomId: row.room_id,
    roomName: row.room_name,
    durable: row.worker_id !== null,
    workerId: row.worker_id,
    displayName: row.display_name,
    actorLabel: row.actor_label,
    agentKey: row.agent_key,
    ideLabel: row.ide_label,
    runtime: row.runtime,
    ownerLabel: row.owner_label,
    status: row.status,
    statusText: row.status_text,
    repoBranch: row.repo_branch,
    ended: row.ended_at !== null,
    endedAt: row.ended_at,
    endedBy: row.ended_by,
    tasksHeld: held.get(`${row.room_id}\n${row.agent_key}`) ?? [],
    lastSeenAt: row.last_seen_at,
    hostId: row.host_id,
    hostLabel: row.host_label,
    releasedAt: row.released_at,
    hostHeardAt: row.host_heard_at,
  }));
}

/** The agent_session object of mcp-tools.md §4. It never carries a token or a worker_id. */
export interface AgentSessionObject {
  session_id: string;
  room_id: string;
  session_kind: SessionRow['session_kind'];
  runtime: string;
  host_id: string;
  /** 'local': a room on this computer; 'team': a team's room, possibly held from another machine. */
  host_kind: 'local' | 'team';
  /** 'Local device' for this computer's rooms; in a team room, the name of the machine that holds it. */
  host_label: string;
  liveness_capability: 'session_activity';
  tool_bridge_id: null;
  actor_label: string;
  agent_key: string;
  agent_instance_id: null;
  display_name: string;
  owner_label: string;
  ide_label: string;
  repo_branch: string | null;
  online: boolean;
  status: SessionStatus;
  status_text: string;
  created_at: string;
  updated_at: string;
  last_seen_at: string;
  ended_at: string | null;
}

/** `place` is the room's: 'local' or a team's name. */
export function toAgentSessionObject(row: SessionRow, context: { online: boolean; hostId: string; place: string }): AgentSessionObject {
  const team = context.place !== 'local';
  return {
    session_id: row.session_id,
    room_id: row.room_id,
    session_kind: row.session_kind,
    runtime: row.runtime,
    host_id: (team ? row.host_id : null) ?? context.hostId,
    host_kind: team ? 'team' : 'local',
    host_label: team ? (row.host_label ?? 'Unknown machine') : 'Local device',
    liveness_capability: 'session_activity',
    tool_bridge_id: null,
    actor_label: row.actor_label,
    agent_key: row.agent_key,
    agent_instance_id: null,
    display_name: row.display_name,
    owner_label: row.owner_label,
    ide_label: row.ide_label,
    repo_branch: row.repo_branch,
    online: context.online,
    status: row.status,
    status_text: row.status_text,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_seen_at: row.last_seen_at,
    ended_at: row.ended_at,
  };
}
