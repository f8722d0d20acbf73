// An in-memory implementation of the whole app API contract: the test double the renderer
// is built and tested against, and the backend of the screenshot script. It keeps the
// contract's rules that the UI depends on (transition table, name clashes, sign-in states).
import type { ApiImplementation } from '../../../src/main/api/dispatcher';
import { appErrors, errors } from '../../../src/main/domain/errors';
import { TRANSITIONS, canTransition, type TaskStatus } from '../../../src/shared/taskTransitions';
import type { AppEvent } from '../../../src/shared/events';
import type { AgentSession, Wake, AppInfo, AuthStatus, Fact, NeedsYouItem, PollResult, RoomSummary, Settings, TaskCard, TaskDetail, TimelineMessage, ToolSetup } from '../../../src/shared/types';
import { searchMessages, timelinePage, topLevel } from './fakeMessages';
import { at, message, person } from './fakeData';
import { emptyTeams, teamMethods, type FakeTeams } from './fakeTeams';
import { emptyPhone, phoneMethods, type FakePhone } from './fakePhone';

export interface FakeState {
  rooms: RoomSummary[];
  messages: Record<string, TimelineMessage[]>;
  tasks: Record<string, TaskCard[]>;
  details: Record<string, Partial<TaskDetail>>;
  agents: AgentSession[];
  /** Each agent session's wakes, newest first. */
  wakes: Record<string, Wake[]>;
  facts: Record<string, Fact[]>;
  needsYou: NeedsYouItem[];
  auth: AuthStatus;
  /** Outcomes auth.poll returns in order (then "pending"). */
  pollScript: PollResult['status'][];
  settings: Settings;
  /** null: the setup writers are not built (setup.* answer not_available). */
  tools: ToolSetup[] | null;
  info: AppInfo;
  teams: FakeTeams;
  /** Phone access and notifications (issue 37). */
  phone: FakePhone;
  clock: number;
}

export function emptyState(): FakeState {
  return {
    rooms: [],
    messages: {},
    tasks: {},
    details: {},
    agents: [],
    wakes: {},
    facts: {},
    needsYou: [],
    auth: { signedIn: false, account: null, keychain: { available: true, message: null }, clientConfigured: true, pending: null },
    pollScript: [],
    settings: { theme: 'system', notifications: true, githubClientId: 'Ov23liFAKE', githubClientIdSource: 'settings', dataDir: '/home/ada/.config/LetAgents', delivery: { unansweredAfterSeconds: 120, loopGuardMessages: 30, loopGuardMinutes: 10 }, approvalTimeoutMinutes: 10 },
    tools: null,
    info: { version: '0.1.0', host: 'browser', device: null, platform: 'linux', person: { name: 'Ada Lovelace', source: 'os' } },
    teams: emptyTeams(),
    phone: emptyPhone(),
    clock: 1000,
  };
}

export interface FakeApi {
  state: FakeState;
  /** Partial: without tools the setup.* methods are absent (the dispatcher answers not_available). */
  impl: Partial<ApiImplementation>;
  calls: Array<{ method: string; input: unknown }>;
  subscribe(listener: (event: AppEvent) => void): () => void;
  emit(event: AppEvent): void;
  /** An agent (or anyone) posts: stored, then pushed as message.created. */
  post(roomId: string, m: Omit<TimelineMessage, 'number' | 'id' | 'roomId'> & { number?: number }): TimelineMessage;
}

export function createFakeApi(state: FakeState = emptyState(), overrides: Partial<ApiImplementation> = {}): FakeApi {
  const listeners = new Set<(event: AppEvent) => void>();
  const calls: FakeApi['calls'] = [];
  const emit = (event: AppEvent) => listeners.forEach((l) => l(event));
  const roomOf = (roomId: string) => state.rooms.find((r) => r.id === roomId) ?? throwIt(errors.R3());
  const list = <T,>(record: Record<string, T[]>, roomId: string): T[] => (record[roomId] ??= []);
  const nextNumber = (roomId: string) => Math.max(0, ...list(state.messages, roomId).map((m) => m.number)) + 1;
  const now = () => at(state.clock++);
  const taskOf = (roomId: string, number: number) => list(state.tasks, roomId).find((t) => t.number === number) ?? throwIt(errors.T3());
  const agentOf = (sessionId: string) => state.agents.find((a) => a.sessionId === sessionId) ?? throwIt(appErrors.notFound('Agent'));

  const post: FakeApi['post'] = (roomId, m) => {
    const stored = { ...m, roomId, number: m.number || nextNumber(roomId), id: '' } as TimelineMessage;
    stored.id = `msg_${stored.number}`;
    if (!m.number) stored.createdAt = now();
    list(state.messages, roomId).push(stored);
    const r = roomOf(roomId);
    r.lastNumber = stored.number;
    r.lastActivityAt = stored.createdAt;
    emit({ type: 'message.created', place: 'local', roomId, message: stored });
    return stored;
  };
  const postAsPerson = (roomId: string, text: string, threadRootNumber: number | null = null) =>
    post(roomId, { ...message(roomId, 0, person(state.info.person.name), text), threadRootNumber });

  const updateTask = (t: TaskCard, change: Partial<TaskCard>): TaskCard => {
    const from = t.status;
    Object.assign(t, change, { updatedAt: now() });
    const detail = (state.details[`${t.roomId}#${t.number}`] ??= {});
    if (change.status && change.status !== from) (detail.history ??= []).push({ from, to: change.status, actor: state.info.person.name, at: t.updatedAt });
    emit({ type: 'task.changed', place: 'local', roomId: t.roomId, task: { ...t } });
    return { ...t };
  };
  const move = (t: TaskCard, to: TaskStatus) => {
    if (!canTransition(t.status, to)) throw errors.T1(t.status, to, TRANSITIONS[t.status]);
    const released = to === 'accepted' || to === 'done' || to === 'cancelled';
    return updateTask(t, { status: to, ...(released ? { assignee: to === 'done' ? t.assignee : null, reviewer: null } : {}) });
  };

  const impl: Partial<ApiImplementation> = {
    'rooms.list': ({ includeArchived }) => state.rooms.filter((r) => includeArchived || !r.archived),
    'rooms.rename': ({ roomId, name }) => ({ ...Object.assign(roomOf(roomId), { name }) }),
    'rooms.archive': ({ roomId, archived }) => ({ ...Object.assign(roomOf(roomId), { archived }) }),
    'rooms.pin': ({ roomId, pinned }) => ({ ...Object.assign(roomOf(roomId), { pinned }) }),
    'rooms.setReplyToAll': ({ roomId, mode }) => ({ ...Object.assign(roomOf(roomId), { replyToAll: mode }) }),
    'rooms.markRead': ({ roomId, number }) => {
      const r = roomOf(roomId);
      r.unread = topLevel(list(state.messages, roomId)).filter((m) => m.number > number).length;
      return { roomId, place: 'local', lastReadNumber: number, unread: r.unread };
    },
    'rooms.export': ({ roomId, format }) => ({
      fileName: `${roomOf(roomId).name.replace(/\W+/g, '-')}.${format === 'json' ? 'json' : 'md'}`,
      mimeType: format === 'json' ? 'application/json' : 'text/markdown',
      content: list(state.messages, roomId).map((m) => `${m.sender.name}: ${m.text}`).join('\n'),
    }),
    'rooms.delete': ({ roomId }) => {
      roomOf(roomId);
      state.rooms = state.rooms.filter((r) => r.id !== roomId);
      emit({ type: 'room.changed', place: 'local', roomId, change: 'deleted' });
      return { removed: true };
    },
    'messages.timeline': ({ roomId, ...page }) => (roomOf(roomId), timelinePage(list(state.messages, roomId), page)),
    'messages.thread': ({ roomId, rootNumber }) => {
      const all = list(state.messages, roomId);
      const root = topLevel(all).find((m) => m.number === rootNumber) ?? throwIt(errors.M2());
      return { root, replies: all.filter((m) => m.threadRootNumber === rootNumber) };
    },
    'messages.send': ({ roomId, text, threadRootNumber }) => {
      if (roomOf(roomId).archived) throw errors.R4();
      return postAsPerson(roomId, text, threadRootNumber ?? null);
    },
    'messages.search': ({ roomId, query, limit }) => searchMessages(list(state.messages, roomId), query, limit ?? 20),
    'messages.searchAll': ({ query, perRoom }) => ({
      groups: state.rooms.flatMap((r) => {
        const found = searchMessages(list(state.messages, r.id), query, perRoom ?? 10);
        return found.hits.length > 0 ? [{ roomId: r.id, place: r.place, ...found }] : [];
      }),
    }),
    'tasks.board': ({ roomId }) => ({ roomId, tasks: list(state.tasks, roomId).map((t) => ({ ...t })) }),
    'tasks.get': ({ roomId, number }) => {
      const t = taskOf(roomId, number);
      const d = state.details[`${roomId}#${number}`] ?? {};
      return { ...t, description: d.description ?? null, history: d.history ?? [], artifacts: d.artifacts ?? [], sourceMessageNumber: d.sourceMessageNumber ?? null, discussionRootNumber: d.discussionRootNumber ?? null };
    },
    'tasks.create': ({ roomId, title, propose, assignTo }) => {
      const tasks = list(state.tasks, roomId);
      const number = Math.max(0, ...tasks.map((t) => t.number)) + 1;
      const target = assignTo === undefined ? null : (state.agents.find((a) => a.roomId === roomId && a.agentKey === assignTo && !a.ended) ?? throwIt(errors.T15(assignTo)));
      const assignee = target && { label: `${target.name} | ${target.owner} | ${target.ide}`, name: target.name, owner: target.owner, ide: target.ide, agentKey: target.agentKey };
      const status = propose ? 'proposed' : assignee ? 'assigned' : 'accepted';
      const created: TaskCard = { id: `task_${number}`, number, roomId, place: 'local', title, status, assignee, reviewer: null, pr: null, createdBy: person(state.info.person.name), proposedByAgent: false, createdAt: now(), updatedAt: now() };
      tasks.push(created);
      emit({ type: 'task.changed', place: 'local', roomId, task: created });
      return created;
    },
    'tasks.move': ({ roomId, number, to }) => move(taskOf(roomId, number), to),
    'tasks.accept': ({ roomId, number }) => move(taskOf(roomId, number), 'accepted'),
    'tasks.cancel': ({ roomId, number }) => move(taskOf(roomId, number), 'cancelled'),
    'tasks.handoff': ({ roomId, number, toAgentKey }) => {
      const t = taskOf(roomId, number);
      const target = state.agents.find((a) => a.roomId === roomId && a.agentKey === toAgentKey && !a.ended) ?? throwIt(errors.T15(toAgentKey));
      const assignee = { label: `${target.name} | ${target.owner} | ${target.ide}`, name: target.name, owner: target.owner, ide: target.ide, agentKey: target.agentKey };
      return updateTask(t, { assignee, status: t.status === 'accepted' ? 'assigned' : t.status });
    },
    'tasks.releaseWork': ({ roomId, number }) => updateTask(taskOf(roomId, number), { assignee: null, status: 'accepted' }),
    'tasks.releaseReview': ({ roomId, number }) => updateTask(taskOf(roomId, number), { reviewer: null }),
    'workers.list': ({ roomId }) => state.agents.filter((a) => !roomId || a.roomId === roomId),
    'workers.rename': ({ sessionId, name }) => {
      const a = agentOf(sessionId);
      if (state.agents.some((o) => o !== a && o.roomId === a.roomId && o.name.toLowerCase() === name.toLowerCase())) throw appErrors.nameTaken();
      a.name = name;
      emit({ type: 'worker.changed', place: 'local', roomId: a.roomId, sessionId, change: 'renamed' });
      return { ...a };
    },
    'workers.wakes': ({ sessionId }) => state.wakes[agentOf(sessionId).sessionId] ?? [],
    'workers.disconnect': ({ sessionId }) => endAgent(agentOf(sessionId), false),
    'workers.remove': ({ sessionId }) => endAgent(agentOf(sessionId), true),
    'needsYou.list': () => ({ items: [...state.needsYou].sort((a, b) => b.createdAt.localeCompare(a.createdAt)) }),
    'needsYou.answer': ({ item, text }) => {
      const found = takeItem(item);
      const reply = postAsPerson(item.roomId, `@${found.from} ${text}`, found.threadRootNumber ?? item.number);
      emit({ type: 'needsYou.changed', place: 'local', roomId: item.roomId });
      return reply;
    },
    'needsYou.dismiss': ({ item }) => {
      takeItem(item);
      emit({ type: 'needsYou.changed', place: 'local', roomId: item.roomId });
      return { removed: true };
    },
    'memory.list': ({ roomId, includeRetired }) => list(state.facts, roomId).filter((f) => includeRetired || !f.retired),
    'memory.add': ({ roomId, category, title, body }) => {
      const facts = list(state.facts, roomId);
      const number = facts.length + 1;
      const created: Fact = { id: `fact_${number}`, number, roomId, category, title, body, sourceMessageNumber: null, sourceUrl: null, createdBy: person(state.info.person.name), createdAt: now(), updatedAt: now(), retired: false };
      facts.unshift(created);
      return created;
    },
    'memory.edit': ({ roomId, number, ...change }) => ({ ...Object.assign(factOf(roomId, number), change, { updatedAt: now() }) }),
    'memory.retire': ({ roomId, number }) => ({ ...Object.assign(factOf(roomId, number), { retired: true }) }),
    'auth.status': () => state.auth,
    'auth.startDeviceFlow': () => {
      if (!state.auth.clientConfigured) throw errors.O1();
      if (!state.auth.keychain.available) throw errors.O3(state.auth.keychain.message ?? 'no keychain');
      const flow = { userCode: 'WDJB-MJHT', verificationUri: 'https://github.com/login/device', expiresAt: new Date(Date.now() + 900_000).toISOString(), expiresIn: 900, interval: 1 };
      state.auth.pending = flow;
      return flow;
    },
    'auth.poll': () => {
      if (!state.auth.pending) throw errors.O2();
      const status = state.pollScript.shift() ?? 'pending';
      if (status === 'authorized') {
        state.auth = { ...state.auth, signedIn: true, pending: null, account: { login: 'ada', name: 'Ada Lovelace', avatarUrl: null } };
        emit({ type: 'auth.changed' });
        return { status, message: null, account: state.auth.account, interval: null };
      }
      if (status === 'denied' || status === 'expired') state.auth.pending = null;
      return { status, message: status === 'denied' ? 'The sign-in request was denied on GitHub.' : null, account: null, interval: status === 'slow_down' ? 2 : 1 };
    },
    'auth.cancel': () => ((state.auth.pending = null), { removed: true }),
    'auth.signOut': () => {
      state.auth = { ...state.auth, signedIn: false, account: null };
      emit({ type: 'auth.changed' });
      return { removed: true };
    },
    'setup.firstPrompt': () => ({ text: 'Use the letagents MCP server: join the room for this repository, register as a worker, read the board, and keep calling wait_for_messages.' }),
    'settings.get': () => state.settings,
    'settings.set': (patch) => {
      const { githubClientId, ...rest } = patch;
      Object.assign(state.settings, rest);
      if (githubClientId !== undefined) {
        state.settings.githubClientId = githubClientId;
        state.auth.clientConfigured = githubClientId !== null;
      }
      return { ...state.settings };
    },
    'app.info': () => state.info,
    'app.doctor': () => ({ checks: [{ id: 'db', title: 'Database', status: 'ok', detail: 'letagents.db opens; schema version 1.' }, { id: 'keychain', title: 'Keychain', status: 'warn', detail: 'No Secret Service found.' }] }),
    'app.openExternal': () => ({ opened: true }),
    'app.openDataFolder': () => ({ opened: false }),
  };
  if (state.tools) Object.assign(impl, setupMethods(state));
  Object.assign(impl, teamMethods(state.teams, emit));
  Object.assign(impl, phoneMethods(state.phone));

  function endAgent(a: AgentSession, removed: boolean) {
    Object.assign(a, { online: false, ended: true });
    if (removed) for (const t of list(state.tasks, a.roomId)) if (t.assignee?.agentKey === a.agentKey) updateTask(t, { assignee: null, status: 'accepted' });
    emit({ type: 'worker.changed', place: 'local', roomId: a.roomId, sessionId: a.sessionId, change: 'ended' });
    return { ...a };
  }
  function takeItem(ref: NeedsYouItem['ref']) {
    const found = state.needsYou.find((i) => i.ref.kind === ref.kind && i.ref.roomId === ref.roomId && i.ref.number === ref.number) ?? throwIt(appErrors.notFound('Item'));
    state.needsYou = state.needsYou.filter((i) => i !== found);
    return found;
  }
  function factOf(roomId: string, number: number) {
    return list(state.facts, roomId).find((f) => f.number === number) ?? throwIt(appErrors.notFound('Fact'));
  }

  const recorded = Object.fromEntries(
    Object.entries({ ...impl, ...overrides }).map(([name, fn]) => [name, (input: unknown) => (calls.push({ method: name, input }), (fn as (i: unknown) => unknown)(input))]),
  ) as Partial<ApiImplementation>;
  return { state, impl: recorded, calls, emit, post, subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) };
}

function setupMethods(state: FakeState): Partial<ApiImplementation> {
  const toolOf = (tool: string) => state.tools!.find((t) => t.tool === tool)!;
  return {
    'setup.status': () => ({ tools: state.tools! }),
    'setup.install': ({ tool, allowTools }) => {
      const allowed = toolOf(tool).toolsAllowed === null ? null : toolOf(tool).toolsAllowed || allowTools === true;
      return { tool: { ...Object.assign(toolOf(tool), { configured: true, toolsAllowed: allowed }) }, backupPath: null, allowBackupPath: null };
    },
    'setup.uninstall': ({ tool }) => ({
      tool: { ...Object.assign(toolOf(tool), { configured: false, toolsAllowed: toolOf(tool).toolsAllowed === null ? null : false }) },
      backupPath: null,
      allowBackupPath: null,
    }),
    'setup.snippet': ({ tool }) => ({ tool, format: 'json', text: '{\n  "mcpServers": {\n    "letagents": { "command": "letagents-desktop", "args": ["mcp"] }\n  }\n}', instructions: `Add this to ${toolOf(tool).configPath}.` }),
  };
}

function throwIt(error: Error): never {
  throw error;
}
