// The store's query modules, driven through the real domain on both engines: this computer's
// SQLite file and a team's PostgreSQL database (a real throwaway cluster). Every query module
// runs here at least once, so SQL that only SQLite accepts (or that means something else in
// PostgreSQL) fails this file before a team room ever runs it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentActor, PersonActor } from '../../../src/main/domain/actor';
import { RoomReceipts, recordDeliveries, type Delivery } from '../../../src/main/domain/delivery/receipts';
import { closeAlert, getAlert, openAlerts, raiseAlert, reviseAlert } from '../../../src/main/domain/knowledge/alerts';
import { Deliveries } from '../../../src/main/delivery/deliveries';
import { DeliverySettings } from '../../../src/main/delivery/deliverySettings';
import { TokenMeter } from '../../../src/main/delivery/tokenMeter';
import { selectAllMeters, selectRoomBytesOn, selectRoomMeter } from '../../../src/main/store/deliveryQueries';
import { getRoomMemory, editFact, rememberFact, retireFact, listRoomFacts } from '../../../src/main/domain/knowledge/facts';
import { countNeedsYou, dismissNeedsYouItem, listNeedsYou } from '../../../src/main/domain/knowledge/needsYou';
import { answerRequest, getHumanRequests, requestHumanInput } from '../../../src/main/domain/knowledge/requests';
import { toAgentMessages } from '../../../src/main/domain/messages/agentMessages';
import { getMessageRow, latestNumber, newestPage, pageAfter, pageBefore, totalMessageCount } from '../../../src/main/domain/messages/read';
import { searchMessages } from '../../../src/main/domain/messages/search';
import { sendMessage } from '../../../src/main/domain/messages/send';
import { threadView, timelineAfter, timelinePage } from '../../../src/main/domain/messages/timeline';
import { advanceClientCursor, getSavedCurrentRoom, getSavedRoomSession, saveJoinedRoom } from '../../../src/main/domain/rooms/clientRoomSessions';
import {
  archiveRoom, createInviteRoom, deleteRoom, ensureRoom, listRooms, markRoomRead, pinRoom, renameRoom, roomListItem, unarchiveRoom,
} from '../../../src/main/domain/rooms/rooms';
import { setPresence, setReasoning, touchLastSeen } from '../../../src/main/domain/sessions/presence';
import {
  createLegacySession, endSession, listAgents, openWorkerSession, renameSession, reviveOrTouchSession, sessionActor, type SessionRow,
} from '../../../src/main/domain/sessions/sessions';
import { findOrCreateWorker, getWorker, workerRooms } from '../../../src/main/domain/sessions/workers';
import {
  activeLeasesOfSession, addTask, claimReview, claimTask, completeTask, getBoard, getTask, handoffTask, listRoomArtifacts, listTaskHistory,
  publishRoomArtifact, releaseReview, releaseWorkLease, updateTask,
} from '../../../src/main/domain/tasks';
import { deleteAccountRow, getAccountRow, getGitHubClientIdSetting, saveAccountRow, setGitHubClientIdSetting } from '../../../src/main/store/accountQueries';
import {
  countRunningTurns, deleteManagedAgentRow, failInterruptedTurns, finishTurnRow, getManagedAgentRow, insertActivityRow, insertManagedAgentRow,
  insertTurnRow, listActivityRowsOfTurn, listManagedAgentRows, listTurnRows, pruneActivityRows, pruneTurnRows,
  getManagedMember, managedWorkerIdsInRoom, upsertManagedMember, setManagedMemberTakesTurns, deleteManagedMember, setProviderSession, updateManagedAgentState, usageTotals,
} from '../../../src/main/store/managedAgentQueries';
import { localOnly, type Places } from '../../../src/main/store/places';
import type { Queryable, Storage, Tx } from '../../../src/main/store/port';
import { eventConcern, eventConcernsOf, heldTaskNumbers, participatedBefore } from '../../../src/main/store/routingQueries';
import { ensureSetting, getSetting, setSetting } from '../../../src/main/store/settingsQueries';
import { storageEngines } from './storageFixtures';

const { engines, prepare } = storageEngines();

const ada: PersonActor = { kind: 'person', label: 'Ada' };
const LABELS = { ownerLabel: 'Ada', ownerSlug: 'ada', ideLabel: 'Codex' } as const;

describe.each(engines)('the query modules on %s', (name, open) => {
  let storage: Storage;
  const write = <T>(fn: (tx: Tx) => Promise<T>) => storage.write(fn);
  const read = <T>(fn: (q: Queryable) => Promise<T>) => storage.read(fn);

  beforeAll(async () => {
    await prepare(name);
  });

  async function fresh(): Promise<void> {
    ({ storage } = await open());
  }

  /** A worker registered in `roomId` under `wanted` (or the name it got), as register_agent_session does. */
  async function worker(roomId: string, key: string, wanted: string): Promise<{ session: SessionRow; actor: AgentActor }> {
    const session = await storage.write(async (tx) => {
      const { worker } = await findOrCreateWorker(tx, { registrationKey: key, requestedName: wanted, ...LABELS });
      return (await openWorkerSession(tx, { worker, roomId, repoBranch: 'main' })).session;
    });
    return { session, actor: sessionActor(session) };
  }

  it('rooms: creation, the sidebar order, marks, unread counts, read markers and deletion', async () => {
    await fresh();
    await write((tx) => ensureRoom(tx, { roomId: 'alpha', kind: 'named' }));
    await write((tx) => ensureRoom(tx, { roomId: 'beta', kind: 'named' }));
    const invite = await write((tx) => createInviteRoom(tx));
    expect(invite.room_id).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await write((tx) => sendMessage(tx, { roomId: 'beta', author: { kind: 'agent', label: 'Juniper | Ada\'s agent | Codex', agentKey: 'k', sessionId: 's', displayName: 'Juniper' }, text: 'news' }));
    await write((tx) => pinRoom(tx, 'alpha'));
    await write((tx) => archiveRoom(tx, invite.room_id));
    await write((tx) => renameRoom(tx, 'beta', '  Beta   room '));
    const list = await read((q) => listRooms(q));
    expect(list.map((r) => [r.roomId, r.pinned, r.archived])).toEqual([['alpha', true, false], ['beta', false, false], [invite.room_id, false, true]]);
    expect(list[1]).toMatchObject({ displayName: 'Beta room', unreadCount: 1, latestMessageNumber: 1 });
    expect(await write((tx) => markRoomRead(tx, 'beta', 99))).toBe(1);
    expect((await read((q) => roomListItem(q, 'beta')))!.unreadCount).toBe(0);
    await write((tx) => unarchiveRoom(tx, invite.room_id));
    await write((tx) => deleteRoom(tx, 'beta'));
    expect((await read((q) => listRooms(q))).map((r) => r.roomId)).toEqual(['alpha', invite.room_id]);
  });

  it('messages: numbering, pages, threads with reply stats, agents\' view, and search through the dialect', async () => {
    await fresh();
    await write((tx) => ensureRoom(tx, { roomId: 'r', kind: 'named' }));
    const { actor: juniper } = await worker('r', 'key-juniper-4f7a9c2e81d6b035', 'Juniper');
    const root = await write((tx) => sendMessage(tx, { roomId: 'r', author: ada, text: 'The login page is broken' }));
    await write((tx) => sendMessage(tx, { roomId: 'r', author: juniper, text: 'Looking at it', threadParentId: `msg_${root}` }));
    await write((tx) => sendMessage(tx, { roomId: 'r', author: ada, text: 'Thanks, café later', replyTo: `msg_${root}` }));
    await write((tx) => sendMessage(tx, { roomId: 'r', author: juniper, text: '', agentPromptKind: 'auto' }));
    const latest = await read((q) => latestNumber(q, 'r'));
    expect(latest).toBe(5); // the join event is number 1
    expect(await read((q) => totalMessageCount(q, 'r'))).toBe(5);
    expect((await read((q) => newestPage(q, 'r', 2))).map((m) => m.number)).toEqual([4, 5]);
    expect((await read((q) => pageAfter(q, 'r', 3, 10))).map((m) => m.number)).toEqual([4, 5]);
    expect((await read((q) => pageBefore(q, 'r', 3, 10))).map((m) => m.number)).toEqual([1, 2]);
    const page = await read((q) => timelinePage(q, 'r'));
    // People never see the prompt-only row, nor the thread reply in the timeline.
    expect(page.messages.map((m) => [m.number, m.replyCount])).toEqual([[1, 0], [2, 1], [4, 0]]);
    expect((await read((q) => timelineAfter(q, 'r', 2))).messages.map((m) => m.number)).toEqual([4]);
    const thread = (await read((q) => threadView(q, 'r', 3)))!;
    expect([thread.root.number, thread.replies.map((m) => m.number)]).toEqual([2, [3]]);
    const agentView = await read(async (q) => toAgentMessages(q, 'r', await pageAfter(q, 'r', 3, 10)));
    expect(agentView.messages[0].reply_to).toMatchObject({ id: 'msg_2', text: 'The login page is broken' });
    expect((await read((q) => getMessageRow(q, 'r', 5)))!.agent_prompt_kind).toBe('auto');
    const hits = await read((q) => searchMessages(q, 'r', 'CAFE'));
    expect(hits.matches.map((m) => m.id)).toEqual(['msg_4']);
    expect((await read((q) => searchMessages(q, 'r', 'log*'))).matches.map((m) => m.id)).toEqual(['msg_2']);
    expect((await read((q) => searchMessages(q, 'r', 'juniper'))).matches.map((m) => m.id)).toEqual(['msg_3', 'msg_1']);
  });

  it('sessions: a name clash gets a codename inside the same write, renames, presence, the roster, ends and revivals', async () => {
    await fresh();
    await write((tx) => ensureRoom(tx, { roomId: 'r', kind: 'named' }));
    const first = await worker('r', 'key-juniper-4f7a9c2e81d6b035', 'Juniper');
    const second = await worker('r', 'key-juniper-9b3e5d7f1a2c4860', 'Juniper');
    expect(first.session.display_name).toBe('Juniper');
    expect(second.session.display_name).not.toBe('Juniper');
    const legacy = await write((tx) => createLegacySession(tx, { roomId: 'r', requestedName: 'Juniper', defaultKey: 'conn:c1', ...LABELS }));
    expect(legacy.display_name).not.toBe('Juniper');
    // A rename into a taken name is refused, and the write that tried goes on unharmed.
    await expect(write((tx) => renameSession(tx, second.session.session_id, 'juniper', ada))).rejects.toThrow();
    const renamed = await write((tx) => renameSession(tx, second.session.session_id, 'Cedar', ada));
    expect(renamed.display_name).toBe('Cedar');
    await write((tx) => setPresence(tx, first.session.session_id, 'working', 'on task_1'));
    await write((tx) => setReasoning(tx, first.session.session_id, { summary: 's', goal: null, checking: null, hypothesis: null, blocker: null, next_action: null, confidence: 0.5, created_at: tx.now }));
    await write((tx) => touchLastSeen(tx, first.session.session_id));
    const roster = await read((q) => listAgents(q, { roomId: 'r' }));
    expect(roster.map((e) => e.displayName).sort()).toEqual(['Cedar', 'Juniper', legacy.display_name].sort());
    expect(await read((q) => listAgents(q))).toHaveLength(3);
    await write((tx) => endSession(tx, first.session.session_id, 'disconnect'));
    const kept = await write((tx) => reviveOrTouchSession(tx, first.session.session_id));
    expect(kept).toMatchObject({ ended_at: null, repo_branch: 'main', status: 'idle' });
    const moved = await write((tx) => reviveOrTouchSession(tx, first.session.session_id, null));
    expect(moved.repo_branch).toBeNull();
    expect(await read((q) => workerRooms(q, first.session.worker_id!))).toEqual(['r']);
    expect(await read((q) => getWorker(q, first.session.worker_id!))).toMatchObject({ display_name: 'Juniper' });
  });

  it('tasks: the whole lifecycle with leases, history, artifacts and what routing reads', async () => {
    await fresh();
    await write((tx) => ensureRoom(tx, { roomId: 'r', kind: 'named' }));
    const { actor: juniper, session } = await worker('r', 'key-juniper-4f7a9c2e81d6b035', 'Juniper');
    const { actor: cedar } = await worker('r', 'key-cedar-4f7a9c2e81d6b035', 'Cedar');
    const task = await write((tx) => addTask(tx, 'r', ada, { title: 'Fix login' }));
    await write((tx) => claimTask(tx, 'r', 1, juniper));
    await write((tx) => updateTask(tx, 'r', 1, juniper, { status: 'in_progress', prUrl: 'https://example.com/pr/1' }));
    await write((tx) => completeTask(tx, 'r', 1, juniper));
    await write((tx) => claimReview(tx, 'r', 1, cedar));
    // A repeat by the reviewer keeps its lease.
    const review = await write((tx) => claimReview(tx, 'r', 1, cedar));
    expect(review.lease.id).toMatch(/^local_review_/);
    expect((await read((q) => getTask(q, 'r', 1))).active_leases.map((l) => l.kind)).toEqual(['work', 'review']);
    expect(await read((q) => heldTaskNumbers(q, 'r', juniper.agentKey))).toEqual([1]);
    expect(await read((q) => activeLeasesOfSession(q, session.session_id))).toEqual([{ taskNumber: 1, kind: 'work' }]);
    await write((tx) => releaseReview(tx, 'r', 1, cedar));
    await write((tx) => handoffTask(tx, 'r', 1, juniper, { targetAgentKey: cedar.agentKey }));
    await write((tx) => releaseWorkLease(tx, 'r', 1, cedar));
    expect((await read((q) => getBoard(q, 'r'))).map((t) => [t.id, t.status, t.active_leases.length])).toEqual([['task_1', 'accepted', 0]]);
    expect(await read((q) => getBoard(q, 'r', { status: 'done' }))).toEqual([]);
    expect((await read((q) => listTaskHistory(q, 'r', 1))).map((e) => [e.seq, e.to_status])).toEqual([
      [1, 'accepted'], [2, 'assigned'], [3, 'in_progress'], [4, 'in_review'], [5, 'accepted'],
    ]);
    expect(task.status).toBe('accepted');
    const published = await write((tx) =>
      publishRoomArtifact(tx, 'r', juniper, { artifact: { provider: 'github', kind: 'pull_request', url: 'https://example.com/pr/1' }, taskId: 'task_1' }),
    );
    const again = await write((tx) =>
      publishRoomArtifact(tx, 'r', juniper, { artifact: { provider: 'github', kind: 'pull_request', url: 'https://example.com/pr/1', title: 'Fix' }, linkedTaskIds: ['task_1'] }),
    );
    expect([published.created, again.created, again.artifact.task_ids]).toEqual([true, false, ['task_1']]);
    expect((await read((q) => listRoomArtifacts(q, 'r', { taskId: 'task_1' }))).artifacts).toHaveLength(1);
    // What activation routing reads: concerns recorded with events, and thread participation.
    const events = await read((q) => newestPage(q, 'r', 100));
    // Cedar's own release of its work concerns the proposer (a person) and Cedar as the holder.
    const released = events.filter((m) => m.source === 'system' && m.text === 'Cedar released task_1.').at(-1)!;
    expect(await read((q) => eventConcern(q, 'r', released.number, cedar.agentKey))).toEqual({ role: 'holder', task_number: 1 });
    expect(await read((q) => eventConcern(q, 'r', released.number, juniper.agentKey))).toBeUndefined();
    const rootNumber = await write((tx) => sendMessage(tx, { roomId: 'r', author: juniper, text: 'thread root' }));
    const reply = await write((tx) => sendMessage(tx, { roomId: 'r', author: ada, text: 'reply', threadParentId: `msg_${rootNumber}` }));
    expect(await read((q) => participatedBefore(q, 'r', rootNumber, reply, juniper.agentKey))).toBe(true);
    expect(await read((q) => participatedBefore(q, 'r', rootNumber, reply, cedar.agentKey))).toBe(false);
  });

  it('knowledge and "Needs you": facts, requests, waiting tasks, mentions and dismissals across rooms', async () => {
    await fresh();
    await write((tx) => ensureRoom(tx, { roomId: 'r', kind: 'named' }));
    await write((tx) => ensureRoom(tx, { roomId: 'old', kind: 'named' }));
    const { actor: juniper } = await worker('r', 'key-juniper-4f7a9c2e81d6b035', 'Juniper');
    const { fact } = await write((tx) => rememberFact(tx, 'r', juniper, { clientId: 'fact-0001', category: 'term', title: 'WAL', body: 'Write-ahead log' }));
    await write((tx) => editFact(tx, ada, 'r', 1, { body: 'The write-ahead log' }));
    expect((await read((q) => getRoomMemory(q, 'r'))).terms.map((t) => t.body)).toEqual(['The write-ahead log']);
    await write((tx) => retireFact(tx, ada, 'r', 1));
    expect([fact.id, (await read((q) => getRoomMemory(q, 'r'))).terms, (await read((q) => listRoomFacts(q, 'r'))).length]).toEqual(['fact_1', [], 1]);
    await write((tx) => requestHumanInput(tx, 'r', juniper, { clientId: 'ask-0001', category: 'question', title: 'Which DB?', body: 'SQLite?' }));
    await write((tx) => requestHumanInput(tx, 'r', juniper, { clientId: 'ask-0002', category: 'approval', title: 'Merge?', body: 'Ready.' }));
    await write((tx) => addTask(tx, 'r', ada, { title: 'Blocked one' }));
    await write((tx) => claimTask(tx, 'r', 1, juniper));
    await write((tx) => updateTask(tx, 'r', 1, juniper, { status: 'in_progress' }));
    await write((tx) => updateTask(tx, 'r', 1, juniper, { status: 'blocked' }));
    const mention = await write((tx) => sendMessage(tx, { roomId: 'r', author: juniper, text: '@ada please look' }));
    await write((tx) => sendMessage(tx, { roomId: 'r', author: juniper, text: 'no mention of anyone' }));
    await write((tx) => sendMessage(tx, { roomId: 'old', author: juniper, text: '@ada in an archived room' }));
    await write((tx) => archiveRoom(tx, 'old'));
    const handles = ['ada'];
    const queue = await read((q) => listNeedsYou(q, { personHandles: handles }));
    expect(queue.map((i) => `${i.kind} ${i.roomId} ${i.id}`).sort()).toEqual(
      ['blocked r task_1', `mention r msg_${mention}`, 'request r req_1', 'request r req_2'].sort(),
    );
    await write((tx) => answerRequest(tx, ada, 'r', 1, 'SQLite'));
    await write((tx) => dismissNeedsYouItem(tx, ada, { kind: 'blocked', roomId: 'r', id: 'task_1' }));
    await write((tx) => dismissNeedsYouItem(tx, ada, { kind: 'mention', roomId: 'r', id: `msg_${mention}` }));
    expect(await read((q) => countNeedsYou(q, { personHandles: handles }))).toBe(1);
    expect((await read((q) => getHumanRequests(q, 'r'))).map((r) => [r.id, r.status])).toEqual([['req_2', 'open'], ['req_1', 'answered']]);
  });

  it('client room sessions, settings, the cached account and managed agents', async () => {
    await fresh();
    await write((tx) => ensureRoom(tx, { roomId: 'a', kind: 'named' }));
    await write((tx) => ensureRoom(tx, { roomId: 'b', kind: 'named' }));
    await write((tx) => saveJoinedRoom(tx, 'client\n/cwd', 'local', 'a', 'join_room', true));
    await write((tx) => saveJoinedRoom(tx, 'client\n/cwd', 'local', 'b', 'config', true));
    expect((await read((q) => getSavedCurrentRoom(q, 'client\n/cwd')))!.roomId).toBe('b');
    expect((await read((q) => getSavedRoomSession(q, 'client\n/cwd', 'a')))!.isCurrent).toBe(false);
    expect(await write((tx) => advanceClientCursor(tx, 'client\n/cwd', 'local', 'a', 4))).toBe(true);
    expect(await write((tx) => advanceClientCursor(tx, 'client\n/cwd', 'local', 'a', 2))).toBe(false);

    expect(await write((tx) => ensureSetting(tx, 'host_id', 'host_1'))).toBe('host_1');
    expect(await write((tx) => ensureSetting(tx, 'host_id', 'host_2'))).toBe('host_1');
    await write((tx) => setSetting(tx, 'ui.theme', 'dark'));
    await write((tx) => setGitHubClientIdSetting(tx, 'Iv1.abc'));
    expect([await read((q) => getSetting(q, 'ui.theme')), await read((q) => getGitHubClientIdSetting(q))]).toEqual(['dark', 'Iv1.abc']);
    await write((tx) => saveAccountRow(tx, { githubId: 7, login: 'ada', displayName: null, avatarUrl: null, expiresAt: null }));
    expect(await read((q) => getAccountRow(q))).toMatchObject({ github_id: 7, login: 'ada' });
    expect(await write((tx) => deleteAccountRow(tx))).toBe(true);

    const { session } = await worker('a', 'key-juniper-4f7a9c2e81d6b035', 'Juniper');
    await write((tx) =>
      insertManagedAgentRow(tx, {
        agent_id: 'agent_1', worker_id: session.worker_id!, room_id: 'a', place: 'local', name: 'Juniper', provider: 'codex', folder: '/w', instructions: '', model: null,
        permissions: 'read_only', turns_per_hour: 5, daily_token_cap: null,
      }),
    );
    await write((tx) => updateManagedAgentState(tx, 'agent_1', { desired_state: 'paused', held_reason: null }));
    const turn = await write((tx) => insertTurnRow(tx, 'agent_1', { kind: 'message', text: 'go' }));
    await write((tx) => insertActivityRow(tx, 'agent_1', turn, 'text', 'hello'));
    expect(await read((q) => countRunningTurns(q))).toBe(1);
    await write((tx) => finishTurnRow(tx, 'agent_1', turn, { status: 'done', inputTokens: 10, outputTokens: 5, costUsd: 0.25, error: null }));
    const second = await write((tx) => insertTurnRow(tx, 'agent_1', { kind: 'run_now', text: '' }));
    expect(await write((tx) => failInterruptedTurns(tx, 'stopped'))).toBe(1);
    await write((tx) => pruneActivityRows(tx, 'agent_1', second));
    await write((tx) => pruneTurnRows(tx, 'agent_1', '2000-01-01'));
    await write((tx) => setProviderSession(tx, 'agent_1', 'session-1', '{"input":1}'));
    expect((await read((q) => listManagedAgentRows(q))).map((r) => r.provider_session_id)).toEqual(['session-1']);
    expect(await read((q) => listActivityRowsOfTurn(q, 'agent_1', turn))).toEqual([]);
    expect((await read((q) => listTurnRows(q, 'agent_1', 10))).map((t) => [t.number, t.status])).toEqual([[2, 'failed'], [1, 'done']]);
    expect(await read((q) => usageTotals(q, 'agent_1', '2000-01-01', '2000-01-01'))).toEqual({ turnsSinceHour: 2, tokensSinceDay: 15, costSinceDay: 0.25 });
    expect((await read((q) => getManagedAgentRow(q, 'agent_1')))!.desired_state).toBe('paused');
    // The room's managed members, as every machine reading the room sees them.
    await write((tx) => upsertManagedMember(tx, { roomId: 'a', workerId: session.worker_id!, agentId: 'agent_1', hostId: null, hostLabel: null, takesTurns: true }));
    expect(await read((q) => managedWorkerIdsInRoom(q, 'a'))).toEqual([session.worker_id]);
    expect(await write((tx) => setManagedMemberTakesTurns(tx, 'agent_1', false))).toBe(true);
    expect(await read((q) => getManagedMember(q, session.worker_id!, 'a'))).toMatchObject({ agent_id: 'agent_1', takes_turns: 0, host_heard_at: null });
    await write((tx) => deleteManagedMember(tx, 'agent_1'));
    expect(await read((q) => managedWorkerIdsInRoom(q, 'a'))).toEqual([]);
    expect(await write((tx) => deleteManagedAgentRow(tx, 'agent_1'))).toBe(true);
  });

  it('delivery: receipt spans and their folding, the token meter and room budgets, the app\'s own "Needs you" items, and what its watchers read', async () => {
    await fresh();
    await write((tx) => ensureRoom(tx, { roomId: 'r', kind: 'named' }));
    const { session, actor: juniper } = await worker('r', 'key-juniper-4f7a9c2e81d6b035', 'Juniper');
    const sid = session.session_id;

    // Receipts: 70 one-message waits (msg_50 never arrived) fold past 64 spans; a gone room is skipped.
    const waits: Delivery[] = [];
    for (let n = 1; n <= 71; n++) if (n !== 50) waits.push({ roomId: 'r', sessionId: sid, first: n, last: n, at: `2026-05-01T09:00:${String(n % 60).padStart(2, '0')}.000Z` });
    await write((tx) => recordDeliveries(tx, [...waits, { roomId: 'gone', sessionId: sid, first: 1, last: 1, at: tx.now }]));
    let receipts = await read((q) => RoomReceipts.load(q, 'r', 1, 71));
    expect([receipts.of(sid, 2)?.exact, receipts.of(sid, 50), receipts.of(sid, 71)?.exact]).toEqual([false, null, true]);
    // Delivery works in each room's place: here the one place this storage is.
    const places: Places = { ...localOnly(storage), get: async () => storage, opened: () => [storage], reachable: async () => [storage] };
    const r = { place: storage.place, roomId: 'r' };
    // The same through the batching writer: pending until its write, stored after.
    const deliveries = new Deliveries(places);
    deliveries.record(r, 'other', 3, 5);
    expect(deliveries.pendingCovers(r, 'other', 4)).toBe(true);
    await deliveries.close();
    expect(deliveries.pendingCovers(r, 'other', 4)).toBe(false);
    receipts = await read((q) => RoomReceipts.load(q, 'r', 4, 4));
    expect(receipts.of('other', 4)?.exact).toBe(true);

    // The token meter (INSERT … SELECT … ON CONFLICT, one statement per entry) and a room's budget kept in settings.
    const settings = new DeliverySettings(storage);
    await settings.setRoomBudget(r, 1000);
    await settings.update({ loopGuardMessages: 12 });
    const reloaded = new DeliverySettings(storage);
    await reloaded.ready;
    expect([reloaded.roomBudget(r), reloaded.roomBudget({ ...r, roomId: 'other' }), reloaded.limits.loopMessages]).toEqual([1000, null, 12]);
    const meter = new TokenMeter(places, reloaded);
    meter.add(r, sid, 3000);
    meter.add(r, null, 996);
    meter.add({ ...r, roomId: 'gone' }, sid, 10);
    await meter.flush();
    meter.add(r, sid, 4);
    await meter.close();
    const day = meter.day(storage.place);
    expect(await read((q) => selectRoomMeter(q, 'r', day))).toEqual([{ session_id: '', today: 996, total: 996 }, { session_id: sid, today: 3004, total: 3004 }]);
    expect(await read((q) => selectAllMeters(q, day))).toEqual([
      { room_id: 'r', session_id: '', today: 996, total: 996 },
      { room_id: 'r', session_id: sid, today: 3004, total: 3004 },
    ]);
    expect(await read((q) => selectRoomBytesOn(q, 'r', day))).toBe(4000);
    expect(await new TokenMeter(places, reloaded).budget(r)).toEqual({ budgetTokens: 1000, usedTokens: 1000, reached: true });
    // A meter read while a meter write commits counts each byte once: stored or pending, never both.
    const racing = new TokenMeter(places, reloaded);
    const totals: number[] = [];
    for (let round = 0; round < 20; round++) {
      racing.add(r, sid, 10);
      const flushing = racing.flush();
      // Each round reads at another moment of the write (before, during, at its COMMIT).
      await new Promise((resolve) => setTimeout(resolve, round % 5));
      totals.push(
        await racing.counted(storage.place, async (pending) => {
          const stored = (await read((q) => selectRoomMeter(q, 'r', day))).reduce((sum, row) => sum + row.total, 0);
          return stored + [...pending.values()].reduce((sum, bytes) => sum + bytes, 0);
        }),
      );
      await flushing;
    }
    expect(totals).toEqual(Array.from({ length: 20 }, (_, i) => 4000 + 10 * (i + 1)));
    await racing.close();

    // The app's own items: once per subject, revised, in the queue, dismissed.
    const number = await write((tx) => raiseAlert(tx, { roomId: 'r', kind: 'unanswered', subject: `msg_1:${sid}`, sessionId: sid, messageNumber: 1, title: 'Juniper hasn\'t picked up your message', body: 'b' }));
    expect(number).toBe(1);
    expect(await write((tx) => raiseAlert(tx, { roomId: 'r', kind: 'unanswered', subject: `msg_1:${sid}`, title: 't', body: 'b' }))).toBeNull();
    expect(await write((tx) => raiseAlert(tx, { roomId: 'gone', kind: 'loop', subject: 's', title: 't', body: 'b' }))).toBeNull();
    await write(async (tx) => reviseAlert(tx, (await getAlert(tx, 'r', 1))!, 'b2', { remindedAt: tx.now }));
    expect((await read((q) => openAlerts(q, 'unanswered'))).map((a) => [a.number, a.body])).toEqual([[1, 'b2']]);
    expect(await read((q) => openAlerts(q, 'unanswered', 'other'))).toEqual([]);
    expect((await read((q) => listNeedsYou(q, { personHandles: ['ada'] }))).map((i) => `${i.kind} ${i.id}`)).toEqual(['alert alert_1']);
    await write((tx) => dismissNeedsYouItem(tx, ada, { kind: 'alert', roomId: 'r', id: 'alert_1' }));
    expect(await write((tx) => closeAlert(tx, 'r', 1, 'resolved'))).toBe(false);
    expect((await read((q) => getAlert(q, 'r', 1)))!.status).toBe('dismissed');

    // What the watchers read: every agent a room event concerns, and whether a worker is a managed agent.
    await write((tx) => addTask(tx, 'r', ada, { title: 'Fix login' }));
    await write((tx) => claimTask(tx, 'r', 1, juniper));
    await write((tx) => updateTask(tx, 'r', 1, juniper, { status: 'in_progress' }));
    await write((tx) => updateTask(tx, 'r', 1, ada, { status: 'blocked' }));
    const moved = (await read((q) => newestPage(q, 'r', 1)))[0];
    expect(await read((q) => eventConcernsOf(q, 'r', moved.number))).toEqual([{ agent_key: juniper.agentKey, role: 'holder', task_number: 1 }]);
    expect(await read((q) => getManagedMember(q, session.worker_id!, 'r'))).toBeUndefined();
    await write((tx) =>
      insertManagedAgentRow(tx, {
        agent_id: 'agent_1', worker_id: session.worker_id!, room_id: 'r', place: 'local', name: 'Juniper', provider: 'codex', folder: '/w', instructions: '', model: null,
        permissions: 'read_only', turns_per_hour: 5, daily_token_cap: null,
      }),
    );
    await write((tx) => upsertManagedMember(tx, { roomId: 'r', workerId: session.worker_id!, agentId: 'agent_1', hostId: 'host-a', hostLabel: 'ada-laptop', takesTurns: true }));
    expect(await read((q) => getManagedMember(q, session.worker_id!, 'r'))).toMatchObject({ agent_id: 'agent_1', host_label: 'ada-laptop', takes_turns: 1 });
  });
});
