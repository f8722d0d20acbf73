// A ShellApi for shell tests: the real dispatcher (input and output checked against the
// contract) over a small in-memory world the test changes, plus an event feed it drives.
import { createDispatcher } from '../../../src/main/api/dispatcher';
import type { ShellApi } from '../../../src/main/electron/shellApi';
import type { AgentSession } from '../../../src/shared/model/workers';
import type { NeedsYouItem } from '../../../src/shared/model/needsYou';
import type { DoctorReport } from '../../../src/shared/model/app';

export interface FakeWorld {
  sessions: AgentSession[];
  needsYou: NeedsYouItem[];
  notifications: boolean;
  doctor: DoctorReport;
}

export function fakeApi(world: Partial<FakeWorld> = {}) {
  const state: FakeWorld = { sessions: [], needsYou: [], notifications: true, doctor: { checks: [] }, ...world };
  const listeners = new Set<(event: unknown) => void>();
  const api: ShellApi = {
    dispatch: createDispatcher({
      'workers.list': () => state.sessions,
      'needsYou.list': () => ({ items: state.needsYou }),
      'settings.get': () => ({
        theme: 'system',
        notifications: state.notifications,
        githubClientId: null,
        githubClientIdSource: 'none',
        dataDir: '/data',
        delivery: { unansweredAfterSeconds: 120, loopGuardMessages: 30, loopGuardMinutes: 10 },
        approvalTimeoutMinutes: 10,
      }),
      'app.doctor': () => state.doctor,
    }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { api, state, emit: (event: unknown) => listeners.forEach((listener) => listener(event)), listeners };
}

export function agentSession(name: string, online: boolean, roomId = 'github.com/ada/app'): AgentSession {
  return {
    sessionId: `sess_${name}_${roomId}`,
    agentKey: `key_${name}`,
    roomId,
    place: 'local',
    machine: null,
    roomName: 'ada/app',
    name,
    ide: 'Claude Code',
    owner: "Ada's agent",
    online,
    ended: false,
    status: 'idle',
    statusText: '',
    lastSeenAt: '2025-01-01T00:00:00.000Z',
    tasksHeld: [],
    lastWake: null,
    reachability: online ? 'idle' : 'offline',
    wakePath: online ? 'next_call' : 'none',
    meter: { todayBytes: 0, totalBytes: 0 },
    approvalWait: null,
  };
}

const base = { roomId: 'github.com/ada/app', roomName: 'ada/app', createdAt: '2025-01-01T00:00:00.000Z', recommendation: null, unblocks: null, approval: null };

export function requestItem(number: number, from: string, title: string): NeedsYouItem {
  return { ...base, ref: { kind: 'request', roomId: base.roomId, number }, reason: 'question', roomName: base.roomName, title, body: 'Details', from, createdAt: base.createdAt, recommendation: null, unblocks: null, threadRootNumber: 4, alert: null, approval: null };
}

export function mentionItem(number: number, from: string, text: string, threadRootNumber: number | null = null): NeedsYouItem {
  return { ...base, ref: { kind: 'mention', roomId: base.roomId, number }, reason: 'mention', title: text, body: text, from, threadRootNumber, alert: null };
}

export function unansweredItem(number: number, agent: string): NeedsYouItem {
  return {
    ...base,
    ref: { kind: 'alert', roomId: base.roomId, number },
    reason: 'unanswered',
    title: `${agent} hasn't picked up your message`,
    body: `You wrote to ${agent} (msg_4), and after 2 minutes it has not reached ${agent}.`,
    from: agent,
    threadRootNumber: 4,
    alert: { actions: ['remind', 'handoff'], prompt: 'Read the LetAgents room ada/app and reply to msg_4.', agent: null, handoffTo: [], remindedAt: null },
  };
}

export function reviewItem(number: number, title: string, reason: 'task_in_review' | 'task_blocked' = 'task_in_review'): NeedsYouItem {
  return { ...base, ref: { kind: 'task', roomId: base.roomId, number }, reason, title, body: '', from: 'Juniper', threadRootNumber: null, alert: null };
}
