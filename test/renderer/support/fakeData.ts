// Builders for the in-memory API double: people, agents, messages, tasks and a demo room
// set that looks like real work (used by component tests and the screenshot script).
import type { AgentSession, Fact, NeedsYouItem, Person, RoomSummary, TaskCard, TaskStatus, TimelineMessage } from '../../../src/shared/types';

/** Demo time starts an hour and a half ago, so ages and "last seen" read like a live morning. */
export const BASE_TIME = Math.floor((Date.now() - 90 * 60_000) / 60_000) * 60_000;
export const at = (minutes: number): string => new Date(BASE_TIME + minutes * 60_000).toISOString();

export function agentPerson(name: string, ide = 'Claude Code', owner = "Ada's agent"): Person {
  return { label: `${name} | ${owner} | ${ide}`, name, owner, ide, agentKey: `ada/${name.toLowerCase()}` };
}
export const person = (name = 'Ada Lovelace'): Person => ({ label: name, name, owner: null, ide: null, agentKey: null });
export const system = (): Person => ({ label: 'LetAgents', name: 'LetAgents', owner: null, ide: null, agentKey: null });

export function room(id: string, overrides: Partial<RoomSummary> = {}): RoomSummary {
  const kind = /^[A-Z0-9]{4}(-[A-Z0-9]{4})+$/.test(id) ? 'invite' : id.split('/').length === 3 ? 'repo' : 'named';
  return {
    id,
    place: 'local',
    kind,
    name: kind === 'invite' ? `Room ${id}` : id,
    repo: kind === 'repo' ? id.split('/').slice(1).join('/') : null,
    code: kind === 'invite' ? id : null,
    pinned: false,
    archived: false,
    unread: 0,
    lastNumber: 0,
    lastActivityAt: null,
    onlineAgents: 0,
    replyToAll: 'in_turn',
    ...overrides,
  };
}

export function message(roomId: string, number: number, sender: Person, text: string, extra: Partial<TimelineMessage> = {}): TimelineMessage {
  const source = sender.agentKey ? 'agent' : sender.name === 'LetAgents' ? 'system' : 'human';
  return {
    id: `msg_${number}`,
    number,
    roomId,
    kind: source === 'system' ? 'event' : 'message',
    source,
    sender,
    text,
    createdAt: at(number),
    replyTo: null,
    threadRootNumber: null,
    replyCount: 0,
    lastReplyAt: null,
    mentionsYou: false,
    fromYou: source === 'human',
    ...extra,
  };
}

export function task(roomId: string, number: number, title: string, status: TaskStatus, extra: Partial<TaskCard> = {}): TaskCard {
  return {
    id: `task_${number}`,
    number,
    roomId,
    place: 'local',
    title,
    status,
    assignee: null,
    reviewer: null,
    pr: null,
    createdBy: agentPerson('Juniper'),
    proposedByAgent: true,
    createdAt: at(number * 10),
    updatedAt: at(number * 10 + 5),
    ...extra,
  };
}

export function agent(roomId: string, roomName: string, name: string, extra: Partial<AgentSession> = {}): AgentSession {
  return {
    sessionId: `local_${name.toLowerCase()}_${roomId.length}`,
    agentKey: `ada/${name.toLowerCase()}`,
    roomId,
    place: 'local',
    machine: null,
    roomName,
    name,
    ide: 'Claude Code',
    owner: "Ada's agent",
    online: true,
    ended: false,
    status: 'idle',
    statusText: 'available in room',
    lastSeenAt: at(85),
    tasksHeld: [],
    lastWake: null,
    reachability: extra.online === false ? 'offline' : 'idle',
    wakePath: extra.online === false ? 'none' : 'next_call',
    meter: { todayBytes: 0, totalBytes: 0 },
    approvalWait: null,
    ...extra,
  };
}

export function fact(roomId: string, number: number, title: string, body: string, extra: Partial<Fact> = {}): Fact {
  return {
    id: `fact_${number}`,
    number,
    roomId,
    category: 'decision',
    title,
    body,
    sourceMessageNumber: null,
    sourceUrl: null,
    createdBy: agentPerson('Juniper'),
    createdAt: at(number),
    updatedAt: at(number),
    retired: false,
    ...extra,
  };
}

export function needsYouItem(roomId: string, roomName: string, number: number, title: string, extra: Partial<NeedsYouItem> = {}): NeedsYouItem {
  return {
    ref: { kind: 'request', roomId, number, place: 'local' },
    reason: 'question',
    roomName,
    title,
    body: '',
    from: 'Juniper',
    createdAt: at(number),
    recommendation: null,
    unblocks: null,
    threadRootNumber: null,
    alert: null,
    approval: null,
    ...extra,
  };
}
