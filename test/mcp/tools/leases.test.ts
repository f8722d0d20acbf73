// Lease tools through real helpers (mcp-tools.md §6): claim_task_review,
// release_task_review, release_task_lease and handoff_task_lease — results, the lease
// life cycle, and T3, T6–T9, T13–T15, T17 with nothing changed on failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectSoft, expectUnchanged, LEASE_KEYS, registerWorker, startApp, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';

const ROOM = 'leases-room';
const T9 = 'Only the worker holding this task can change it.';

interface Worker {
  agent: Agent;
  workerId: string;
  session: { session_id: string; agent_key: string; actor_label: string };
  call(tool: string, args: Record<string, unknown>): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

let serve: ServeHandle & PlacedApp;
let ada: Worker;
let bob: Worker;
let carol: Worker;

async function worker(name: string, clientName: string): Promise<Worker> {
  const agent = await connectAgent(serve, { clientName });
  const reg = await registerWorker(agent, ROOM, name);
  return { agent, workerId: reg.workerId, session: reg.session, call: (tool, args) => agent.call(tool, { worker_id: reg.workerId, ...args }) };
}

beforeAll(async () => {
  serve = await startApp();
  ada = await worker('Juniper', 'claude-code');
  bob = await worker('Cedar', 'codex');
  carol = await worker('Wren', 'cursor');
});

afterAll(async () => {
  for (const w of [ada, bob, carol]) await w?.agent.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

/** A task Ada proposed, Bob accepted and (unless `claim` is false) claimed. */
async function task(title: string, claim = true): Promise<string> {
  const { task: created } = await ada.call('add_task', { title });
  await bob.call('update_task', { task_id: created.id, status: 'accepted' });
  if (claim) await bob.call('claim_task', { task_id: created.id });
  return created.id;
}

describe('review leases', () => {
  it('claims review authority (reusing its id), refuses the holder and a second reviewer, and releases it', async () => {
    const id = await task('Needs review');
    await bob.call('complete_task', { task_id: id });
    expectHard(await bob.call('claim_task_review', { task_id: id }), 'A worker holding the task cannot also claim review authority.');

    const claim = await carol.call('claim_task_review', { task_id: id, reason: 'I know this code' });
    expect(Object.keys(claim).sort()).toEqual(['action', 'agent_identity', 'lease', 'success', 'task']);
    expect(Object.keys(claim.lease).sort()).toEqual(LEASE_KEYS);
    expect(claim).toMatchObject({ success: true, action: 'claim', lease: { id: expect.stringMatching(/^local_review_\d+_[0-9a-z]+$/), kind: 'review', status: 'active', agent_key: carol.session.agent_key, holder_label: carol.session.actor_label } });
    expect(claim.task.active_leases.map((l: { kind: string }) => l.kind).sort()).toEqual(['review', 'work']);
    expect((await carol.call('claim_task_review', { task_id: id })).lease.id).toBe(claim.lease.id);

    await expectUnchanged(serve, async () => {
      expectHard(await ada.call('claim_task_review', { task_id: id }), 'Review authority is already held by another local reviewer.');
      expectHard(await ada.call('release_task_review', { task_id: id }), 'This worker does not hold review authority for this task.');
      expectHard(await carol.call('release_task_review', { task_id: id, lease_id: 'local_review_1_stale' }), 'Review lease id did not match the active local review authority.');
      // The reviewer cannot also take the work.
      expectHard(await bob.call('handoff_task_lease', { task_id: id, target_agent_key: carol.session.agent_key }), "The task's reviewer cannot also take its work lease.");
      for (const tool of ['claim_task_review', 'release_task_review']) expectSoft(await carol.call(tool, { task_id: 'task_999' }), 'Task not found.');
    });

    const released = await carol.call('release_task_review', { task_id: id, lease_id: claim.lease.id });
    expect(Object.keys(released).sort()).toEqual(['action', 'released_lease', 'success', 'task']);
    expect(released).toMatchObject({ success: true, action: 'release', released_lease: { id: claim.lease.id, kind: 'review', status: 'released' } });
    expect((await carol.call('release_task_review', { task_id: id })).released_lease).toBeNull();
  });

  it('keeps a reviewer from claiming the task (T17)', async () => {
    const id = await task('Reviewed before it is claimed', false);
    await carol.call('claim_task_review', { task_id: id });
    await expectUnchanged(serve, async () => expectHard(await carol.call('claim_task', { task_id: id }), "The task's reviewer cannot also take its work lease."));
  });
});

describe('release_task_lease', () => {
  it('gives the work back: accepted, assignee cleared, lease released; others get T9 and a stale id T13', async () => {
    const id = await task('Give it back');
    const lease = (await bob.call('get_board', {})).tasks.find((t: { id: string }) => t.id === id).active_leases[0];
    await expectUnchanged(serve, async () => {
      expectHard(await ada.call('release_task_lease', { task_id: id }), T9);
      expectHard(await bob.call('release_task_lease', { task_id: id, lease_id: 'local_work_1_stale' }), 'Work lease id did not match the active work lease.');
      expectSoft(await bob.call('release_task_lease', { task_id: 'task_999' }), 'Task not found.');
    });
    const released = await bob.call('release_task_lease', { task_id: id, lease_id: lease.id, reason: 'out of time' });
    expect(Object.keys(released).sort()).toEqual(['action', 'released_lease', 'success', 'task']);
    expect(released).toMatchObject({
      action: 'release', released_lease: { id: lease.id, kind: 'work', status: 'released' },
      task: { status: 'accepted', assignee: null, assignee_agent_key: null, assignee_agent_session_id: null, active_leases: [] },
    });
    expect((await bob.agent.call('register_agent_session', { room_id: ROOM, worker_id: bob.workerId })).agent_session.status).toBe('idle');
  });
});

describe('handoff_task_lease', () => {
  it('hands an unheld accepted task to a live worker, then the holder passes it on', async () => {
    const id = await task('Pass it around', false);
    const first = await ada.call('handoff_task_lease', { task_id: id, target_agent_key: bob.session.agent_key, target_actor_instance_id: 'ignored' });
    expect(Object.keys(first).sort()).toEqual(['action', 'new_lease', 'released_lease', 'success', 'task']);
    expect(first).toMatchObject({
      success: true, action: 'handoff', released_lease: null,
      new_lease: { kind: 'work', status: 'active', agent_key: bob.session.agent_key, agent_session_id: bob.session.session_id },
      task: { status: 'assigned', assignee_agent_key: bob.session.agent_key },
    });
    const newest = (await ada.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0];
    expect(newest).toMatchObject({ source: 'system', text: expect.stringContaining(id) });

    await expectUnchanged(serve, async () => {
      expectHard(await ada.call('handoff_task_lease', { task_id: id, target_agent_key: ada.session.agent_key }), T9);
      expectHard(await bob.call('handoff_task_lease', { task_id: id, target_agent_key: 'agent_nobody' }), 'No live worker with agent key agent_nobody in this room.');
      expectHard(await bob.call('handoff_task_lease', { task_id: id, target_agent_key: carol.session.agent_key, lease_id: 'local_work_1_stale' }), 'Work lease id did not match the active work lease.');
      expectHard(await bob.call('handoff_task_lease', { task_id: id, target_agent_key: carol.session.agent_key, target_agent_session_id: bob.session.session_id }), `No live worker with agent key ${carol.session.agent_key} in this room.`);
      expectHard(await bob.call('handoff_task_lease', { task_id: id }), /target_agent_key/);
      expectSoft(await bob.call('handoff_task_lease', { task_id: 'task_999', target_agent_key: carol.session.agent_key }), 'Task not found.');
    });

    const second = await bob.call('handoff_task_lease', { task_id: id, target_agent_key: carol.session.agent_key, target_agent_session_id: carol.session.session_id, lease_id: first.new_lease.id });
    expect(second).toMatchObject({
      released_lease: { id: first.new_lease.id, status: 'handed_off' },
      new_lease: { agent_key: carol.session.agent_key, status: 'active' },
      task: { status: 'assigned', assignee_agent_key: carol.session.agent_key },
    });
  });

  it('refuses a target whose session ended', async () => {
    const id = await task('For someone who left', false);
    const dan = await worker('Otter', 'gemini-cli');
    await dan.call('disconnect_agent_session', {});
    await expectUnchanged(serve, async () =>
      expectHard(await ada.call('handoff_task_lease', { task_id: id, target_agent_key: dan.session.agent_key }), `No live worker with agent key ${dan.session.agent_key} in this room.`),
    );
    await dan.agent.client.close();
  });
});
