// Task tools through real helpers (mcp-tools.md §6): add_task, get_board, claim_task,
// update_task and complete_task — the task object, leases, presence, the one system
// event per write, and the task rule errors (hard) versus an unknown task (soft).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectSoft, expectUnchanged, LEASE_KEYS, registerWorker, startApp, TASK_KEYS, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';

const ROOM = 'tasks-room';
const T9 = 'Only the worker holding this task can change it.';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let bob: Agent;
let adaW: string;
let bobW: string;
let bobSession: { session_id: string; agent_key: string; actor_label: string };

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  bob = await connectAgent(serve, { clientName: 'codex' });
  adaW = (await registerWorker(ada, ROOM, 'Juniper')).workerId;
  const reg = await registerWorker(bob, ROOM, 'Cedar');
  bobW = reg.workerId;
  bobSession = reg.session;
});

afterAll(async () => {
  await ada?.client.close();
  await bob?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const asAda = (tool: string, args: Record<string, unknown>) => ada.call(tool, { worker_id: adaW, ...args });
const asBob = (tool: string, args: Record<string, unknown>) => bob.call(tool, { worker_id: bobW, ...args });
const newestMessage = async () => (await ada.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0];

/** A task Ada proposed and Bob accepted, ready to claim. */
async function acceptedTask(title: string): Promise<string> {
  const { task } = await asAda('add_task', { title });
  await asBob('update_task', { task_id: task.id, status: 'accepted' });
  return task.id;
}

describe('add_task', () => {
  it('proposes task_N as the worker, linked to a source message, and announces it', async () => {
    const source = await asAda('send_message', { text: 'we should fix login' });
    const result = await asAda('add_task', { title: '  Fix login  ', description: 'It 500s', source_message_id: source.id, created_by: 'ignored' });
    expect(Object.keys(result).sort()).toEqual(['agent_identity', 'success', 'task']);
    expect(Object.keys(result.task).sort()).toEqual(TASK_KEYS);
    expect(result.task).toMatchObject({
      id: expect.stringMatching(/^task_[1-9]\d*$/), title: 'Fix login', description: 'It 500s', status: 'proposed', assignee: null, assignee_agent_key: null,
      assignee_agent_instance_id: null, assignee_agent_session_id: null, created_by: result.agent_identity.actor_label, source_message_id: source.id,
      pr_url: null, workflow_artifacts: [], workflow_refs: [], active_leases: [],
    });
    expect(await newestMessage()).toMatchObject({ source: 'system', kind: 'event', sender: 'LetAgents', agent_identity: null, text: `Juniper proposed ${result.task.id}: Fix login` });
  });

  it('refuses a blank title (T2), a bad source message (M2) and oversized fields, storing nothing', async () => {
    await expectUnchanged(serve, async () => {
      expectHard(await asAda('add_task', { title: '   ' }), 'Task title is required.');
      expectHard(await asAda('add_task', { title: 'x', source_message_id: 'msg_99999' }), 'reply_to must reference an existing local message in this room.');
      expectHard(await asAda('add_task', { title: 'x', source_message_id: 'msg_01' }), 'reply_to must reference an existing local message in this room.');
      expectHard(await asAda('add_task', { title: 'x'.repeat(501) }), /title/);
      expectHard(await asAda('add_task', { title: 'x', description: 'd'.repeat(20_001) }), /description/);
      expectHard(await asAda('add_task', { title: 12 }), /title/);
    });
  });
});

describe('claim_task and update_task', () => {
  it('accepts by another worker, claims with a work lease (idempotent on retry), and sets presence', async () => {
    const { task } = await asAda('add_task', { title: 'Write docs' });
    expectHard(await asAda('update_task', { task_id: task.id, status: 'accepted' }), 'A task must be accepted by someone other than the worker that proposed it.');
    expectHard(await asBob('claim_task', { task_id: task.id }), 'Invalid transition: proposed -> assigned. Allowed: accepted, cancelled');
    expect((await asBob('update_task', { task_id: task.id, status: 'accepted' })).task.status).toBe('accepted');

    const claim = await asBob('claim_task', { task_id: task.id, assignee: 'ignored' });
    expect(Object.keys(claim).sort()).toEqual(['agent_identity', 'lease', 'success', 'task']);
    expect(Object.keys(claim.lease).sort()).toEqual(LEASE_KEYS);
    expect(claim.lease).toMatchObject({ id: expect.stringMatching(/^local_work_\d+_[0-9a-z]+$/), kind: 'work', status: 'active', holder_label: bobSession.actor_label, agent_key: bobSession.agent_key, agent_session_id: bobSession.session_id });
    expect(claim.task).toMatchObject({ status: 'assigned', assignee: bobSession.actor_label, assignee_agent_key: bobSession.agent_key, assignee_agent_session_id: bobSession.session_id, active_leases: [claim.lease] });
    expect(await newestMessage()).toMatchObject({ source: 'system', text: `Cedar claimed ${task.id}.` });
    const retry = await asBob('claim_task', { task_id: task.id });
    expect(retry.lease.id).toBe(claim.lease.id);
    const session = (await bob.call('register_agent_session', { room_id: ROOM, worker_id: bobW })).agent_session;
    expect(session).toMatchObject({ status: 'working', status_text: `claimed ${task.id}` });
    expectHard(await asAda('claim_task', { task_id: task.id }), 'Task is already held by another worker. Ask its holder to hand it off.');
  });

  it('lets the holder move the task and edit its links; others get the task rule errors', async () => {
    const id = await acceptedTask('Ship the feature');
    await asBob('claim_task', { task_id: id });
    const moved = await asBob('update_task', { task_id: id, status: 'in_progress', pr_url: 'https://github.com/acme/widget/pull/7' });
    expect(Object.keys(moved).sort()).toEqual(['agent_identity', 'success', 'task']);
    expect(moved.task).toMatchObject({ status: 'in_progress', pr_url: 'https://github.com/acme/widget/pull/7' });
    await expectUnchanged(serve, async () => {
      expectHard(await asAda('update_task', { task_id: id, status: 'blocked' }), T9);
      expectHard(await asBob('update_task', { task_id: id, status: 'merged' }), 'Invalid transition: in_progress -> merged. Allowed: blocked, in_review, done, cancelled');
      expectHard(await asBob('update_task', { task_id: id, assignee: 'Juniper' }), 'Use handoff_task_lease to assign work to another worker.');
      expectHard(await asBob('update_task', { task_id: id, assignee: '' }), 'Use claim_task or handoff_task_lease to change task ownership.');
      expectHard(await asBob('update_task', { task_id: id, status: 'paused' }), /status/);
      expectHard(await asBob('update_task', { task_id: id, workflow_artifacts: [{ provider: 'github', kind: 'pull_request', colour: 'red' }] }), /colour|unrecognized/i);
    });
    // The current status again is not a transition.
    expect((await asBob('update_task', { task_id: id, status: 'in_progress' })).task.status).toBe('in_progress');
  });

  it('refuses cancelling someone else\'s unheld task (T12) and reports an unknown task softly (T3)', async () => {
    const id = await acceptedTask('Not Bob\'s to cancel');
    await expectUnchanged(serve, async () => {
      expectHard(await asBob('update_task', { task_id: id, status: 'cancelled' }), 'This worker may not change this task.');
      for (const taskId of ['task_999', 'task_01', 'msg_1']) {
        for (const tool of ['claim_task', 'update_task', 'complete_task']) expectSoft(await asBob(tool, { task_id: taskId, status: 'accepted' }), 'Task not found.');
      }
      expectHard(await asBob('claim_task', { task_id: 7 }), /task_id/);
      expectHard(await asBob('claim_task', {}), /task_id/);
    });
  });
});

describe('update_task as a claim, and releasing in merged', () => {
  it('claims with status "assigned" and no assignee, and in merged a release ends only the lease', async () => {
    const id = await acceptedTask('Claimed through update_task');
    const claimed = await asBob('update_task', { task_id: id, status: 'assigned' });
    expect(claimed.task).toMatchObject({ status: 'assigned', assignee_agent_key: bobSession.agent_key, active_leases: [{ kind: 'work', status: 'active' }] });
    await asBob('complete_task', { task_id: id });
    await asBob('update_task', { task_id: id, status: 'merged' });
    const released = await asBob('release_task_lease', { task_id: id });
    expect(released).toMatchObject({ task: { status: 'merged', active_leases: [] }, released_lease: { kind: 'work', status: 'released' } });
  });
});

describe('complete_task', () => {
  it('moves the holder\'s task to in_review with its PR link; others get T9', async () => {
    const id = await acceptedTask('Review me');
    await asBob('claim_task', { task_id: id });
    expectHard(await asAda('complete_task', { task_id: id }), T9);
    const done = await asBob('complete_task', { task_id: id, pr_url: 'https://github.com/acme/widget/pull/8' });
    expect(Object.keys(done).sort()).toEqual(['agent_identity', 'success', 'task']);
    expect(done.task).toMatchObject({ status: 'in_review', pr_url: 'https://github.com/acme/widget/pull/8' });
    expect((await bob.call('register_agent_session', { room_id: ROOM, worker_id: bobW })).agent_session.status).toBe('reviewing');
    const unheld = await acceptedTask('Never claimed');
    expectHard(await asBob('complete_task', { task_id: unheld }), 'Invalid transition: accepted -> in_review. Allowed: assigned, cancelled');
  });
});

describe('get_board', () => {
  it('lists open tasks in number order with the last 4 artifacts and counts; filters by status', async () => {
    const id = await acceptedTask('Many artifacts');
    await asBob('claim_task', { task_id: id });
    const artifacts = [1, 2, 3, 4, 5, 6].map((n) => ({ provider: 'github', kind: 'pull_request', number: n, url: `https://github.com/acme/widget/pull/${n}` }));
    await asBob('update_task', { task_id: id, workflow_artifacts: artifacts });
    const cancelled = await acceptedTask('Dropped');
    await asAda('update_task', { task_id: cancelled, status: 'cancelled' });

    const board = await asBob('get_board', {});
    // repo_visibility is ours (mcp-tools.md allows added fields): null outside GitHub repo rooms.
    expect(Object.keys(board).sort()).toEqual(['artifact_detail_instruction', 'repo_visibility', 'success', 'tasks']);
    expect(board.repo_visibility).toBeNull();
    expect(board.artifact_detail_instruction).toBe('Only the last 4 workflow artifacts per task are shown. Call get_room_artifacts with task_id for the full list.');
    const numbers = board.tasks.map((t: { id: string }) => Number(t.id.slice(5)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(board.tasks.map((t: { id: string }) => t.id)).not.toContain(cancelled);
    const card = board.tasks.find((t: { id: string }) => t.id === id);
    // Every spec key; a card may carry more (pr_status, from the GitHub work, is not in mcp-tools.md).
    expect(Object.keys(card)).toEqual(expect.arrayContaining([...TASK_KEYS, 'workflow_artifact_count', 'workflow_artifacts_truncated', 'workflow_ref_count', 'workflow_refs_truncated']));
    expect(card.workflow_artifacts.map((a: { number: number }) => a.number)).toEqual([3, 4, 5, 6]);
    expect(card).toMatchObject({ workflow_artifact_count: 6, workflow_artifacts_truncated: true, workflow_ref_count: 0, workflow_refs_truncated: false, workflow_refs: [] });

    expect((await asBob('get_board', { open_only: false })).tasks.map((t: { id: string }) => t.id)).toContain(cancelled);
    const onlyCancelled = await asBob('get_board', { status: 'cancelled', open_only: true });
    expect(onlyCancelled.tasks.map((t: { id: string }) => t.id)).toEqual([cancelled]);
    expectHard(await asBob('get_board', { status: 'finished' }), /status/);
    expectHard(await asBob('get_board', { open_only: 'yes' }), /open_only/);
  });
});
