// The work lease (data-model.md §4.4): claim, retry, release, handoff, and the endings a
// status change brings; plus a removed agent's leases and resumed work.
import { describe, expect, it } from 'vitest';
import {
  activeLeasesOfSession, claimReview, claimTask, getTask, handoffTask, listTaskHistory, releaseWorkLease,
  releaseWorkLeasesOfSession, updateTask, reassignTaskAsPerson, forceReleaseWorkLease,
} from '../../../../src/main/domain/tasks';
import { ROOM, OTHER_ROOM, eventTexts, expectRefused, leaseRows, makeWorld, presenceOf } from './world';
import { taskIn } from './scenarios';

const LEASE_ID = /^local_work_\d{13}_[0-9a-z]+$/;

describe('claiming a task', () => {
  it('creates a work lease, copies the holder into the assignee fields and says so', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const cedar = world.agent('Cedar');
    const { task, lease } = await world.write((tx) => claimTask(tx, ROOM, number, cedar));
    expect(lease).toEqual({
      id: expect.stringMatching(LEASE_ID), kind: 'work', holder_label: cedar.label, agent_key: cedar.agentKey,
      agent_session_id: cedar.sessionId, status: 'active', created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect(Number(lease.id.split('_')[2])).toBe(Date.parse(lease.created_at));
    expect(task).toMatchObject({
      status: 'assigned', assignee: cedar.label, assignee_agent_key: cedar.agentKey, assignee_agent_session_id: cedar.sessionId,
      active_leases: [lease],
    });
    expect(eventTexts(world.db).at(-1)).toBe(`Cedar claimed task_${number}.`);
    expect(presenceOf(world.db, cedar.sessionId)).toEqual({ status: 'working', status_text: `claimed task_${number}` });
    expect((await listTaskHistory(world.q, ROOM, number)).at(-1)).toMatchObject({ from_status: 'accepted', to_status: 'assigned', actor_label: cedar.label });
  });

  it('a retry by the holder returns the same lease and posts nothing', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const cedar = world.agent('Cedar');
    const first = await world.write((tx) => claimTask(tx, ROOM, number, cedar));
    const events = eventTexts(world.db).length;
    const again = await world.write((tx) => claimTask(tx, ROOM, number, cedar));
    expect(again.lease).toEqual(first.lease);
    expect(eventTexts(world.db).length).toBe(events);
    expect(leaseRows(world.db, number)).toHaveLength(1);
  });

  it('is refused with T1 outside accepted, and once the holder has moved on', async () => {
    const world = await makeWorld();
    const proposed = await taskIn(world, 'proposed');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => claimTask(tx, ROOM, proposed.number, cedar), 'T1',
      'Invalid transition: proposed -> assigned. Allowed: accepted, cancelled');
    const working = await taskIn(world, 'in_progress');
    await expectRefused(world, (tx) => claimTask(tx, ROOM, working.number, working.holder), 'T1',
      'Invalid transition: in_progress -> assigned. Allowed: blocked, in_review, done, cancelled');
  });

  it('an unknown task is T3', async () => {
    const world = await makeWorld();
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => claimTask(tx, ROOM, 99, cedar), 'T3', 'Task not found.');
  });
});

describe('releasing a task', () => {
  it('puts a held task back to accepted, clears the assignee, ends the lease and sets the holder idle', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'blocked');
    const leaseId = (await getTask(world.q, ROOM, number)).active_leases[0].id;
    const { task, released_lease } = await world.write((tx) => releaseWorkLease(tx, ROOM, number, holder, { leaseId }));
    expect(released_lease).toMatchObject({ id: leaseId, status: 'released' });
    expect(task).toMatchObject({ status: 'accepted', assignee: null, assignee_agent_key: null, assignee_agent_session_id: null, active_leases: [] });
    expect(eventTexts(world.db).at(-1)).toBe(`${holder.displayName} released task_${number}.`);
    expect(presenceOf(world.db, holder.sessionId)).toEqual({ status: 'idle', status_text: 'available in room' });
    expect((await listTaskHistory(world.q, ROOM, number)).at(-1)).toMatchObject({ from_status: 'blocked', to_status: 'accepted' });
  });

  it('in merged ends only the lease', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'merged');
    const history = (await listTaskHistory(world.q, ROOM, number)).length;
    const { task } = await world.write((tx) => releaseWorkLease(tx, ROOM, number, holder));
    expect(task).toMatchObject({ status: 'merged', active_leases: [] });
    expect(await listTaskHistory(world.q, ROOM, number)).toHaveLength(history);
  });

  it('a stale lease id is T13', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    await expectRefused(world, (tx) => releaseWorkLease(tx, ROOM, number, holder, { leaseId: 'local_work_1_old' }), 'T13',
      'Work lease id did not match the active work lease.');
  });

  it('the holder is its agent key: another session of the same agent may release', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const reconnected = world.agent('Juniper again', { agentKey: holder.agentKey });
    await world.write((tx) => releaseWorkLease(tx, ROOM, number, reconnected));
    expect((await getTask(world.q, ROOM, number)).status).toBe('accepted');
  });

  it('a person force-releasing posts the release under their name', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_progress');
    await world.write((tx) => forceReleaseWorkLease(tx, ROOM, number, world.person));
    expect(eventTexts(world.db).at(-1)).toBe(`Ada released task_${number}.`);
  });
});

describe('status changes end leases', () => {
  for (const to of ['done', 'cancelled'] as const) {
    it(`${to} completes the work and review leases`, async () => {
      const world = await makeWorld();
      const { number, holder } = await taskIn(world, 'in_review');
      const cedar = world.agent('Cedar');
      await world.write((tx) => claimReview(tx, ROOM, number, cedar));
      await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: to }));
      expect(leaseRows(world.db, number).map((l) => [l.kind, l.status])).toEqual([['work', 'completed'], ['review', 'completed']]);
      expect((await getTask(world.q, ROOM, number)).active_leases).toEqual([]);
    });
  }

  it('reopening from merged releases the work lease', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'merged');
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'accepted' }));
    expect(leaseRows(world.db, number).map((l) => l.status)).toEqual(['released']);
    expect(await getTask(world.q, ROOM, number)).toMatchObject({ status: 'accepted', assignee: null });
  });

  it('moves within held statuses keep the lease', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'in_progress' }));
    expect(leaseRows(world.db, number).map((l) => l.status)).toEqual(['active']);
  });
});

describe('handing off', () => {
  it('ends the old lease as handed_off, creates one for the target and names both in the event', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const cedar = world.agent('Cedar');
    const result = await world.write((tx) => handoffTask(tx, ROOM, number, holder, { targetAgentKey: cedar.agentKey }));
    expect(result.released_lease).toMatchObject({ status: 'handed_off', agent_key: holder.agentKey });
    expect(result.new_lease).toMatchObject({ status: 'active', agent_key: cedar.agentKey, agent_session_id: cedar.sessionId, holder_label: cedar.label });
    expect(result.task).toMatchObject({ status: 'in_progress', assignee: cedar.label, assignee_agent_session_id: cedar.sessionId });
    expect(eventTexts(world.db).at(-1)).toBe(`task_${number} was handed off from ${holder.displayName} to @Cedar.`);
    expect(presenceOf(world.db, holder.sessionId).status).toBe('idle');
  });

  it('turns an accepted task into an assigned one, with no released lease', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const birch = world.agent('Birch');
    const cedar = world.agent('Cedar');
    const result = await world.write((tx) => handoffTask(tx, ROOM, number, birch, { targetAgentKey: cedar.agentKey }));
    expect(result.released_lease).toBeNull();
    expect(result.task.status).toBe('assigned');
    expect(eventTexts(world.db).at(-1)).toBe(`task_${number} was handed off from Birch to @Cedar.`);
    expect((await listTaskHistory(world.q, ROOM, number)).at(-1)).toMatchObject({ from_status: 'accepted', to_status: 'assigned' });
  });

  it('T15 when the target has no live worker session in this room', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const gone = world.agent('Gone', { ended: true });
    const elsewhere = world.agent('Elsewhere', { room: OTHER_ROOM });
    const controller = world.agent('Watcher', { kind: 'controller' });
    for (const key of ['key-nobody', gone.agentKey, elsewhere.agentKey, controller.agentKey]) {
      await expectRefused(world, (tx) => handoffTask(tx, ROOM, number, holder, { targetAgentKey: key }), 'T15',
        `No live worker with agent key ${key} in this room.`);
    }
  });

  it('T16 when the target has several live sessions, unless one is named', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const cedar1 = world.agent('Cedar', { agentKey: 'key-cedar' });
    world.agent('Cedar two', { agentKey: 'key-cedar' });
    await expectRefused(world, (tx) => handoffTask(tx, ROOM, number, holder, { targetAgentKey: 'key-cedar' }), 'T16',
      'That agent has several sessions in this room; pass target_agent_session_id.');
    await expectRefused(world, (tx) => handoffTask(tx, ROOM, number, holder, { targetAgentKey: 'key-cedar', targetSessionId: 'local_nope' }),
      'T15', 'No live worker with agent key key-cedar in this room.');
    const { new_lease } = await world.write((tx) =>
      handoffTask(tx, ROOM, number, holder, { targetAgentKey: 'key-cedar', targetSessionId: cedar1.sessionId }));
    expect(new_lease.agent_session_id).toBe(cedar1.sessionId);
  });

  it("T17 when the target is the task's reviewer", async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await expectRefused(world, (tx) => handoffTask(tx, ROOM, number, holder, { targetAgentKey: cedar.agentKey }), 'T17',
      "The task's reviewer cannot also take its work lease.");
  });

  it('T13 for a stale lease id', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => handoffTask(tx, ROOM, number, holder, { targetAgentKey: cedar.agentKey, leaseId: 'local_work_1_x' }),
      'T13', 'Work lease id did not match the active work lease.');
  });

  it("a person may reassign someone else's task, but not one that cannot be assigned", async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'blocked');
    const cedar = world.agent('Cedar');
    await world.write((tx) => reassignTaskAsPerson(tx, ROOM, number, world.person, { agentKey: cedar.agentKey }));
    expect(eventTexts(world.db).at(-1)).toBe(`task_${number} was handed off from ${holder.displayName} to @Cedar.`);
    expect(await getTask(world.q, ROOM, number)).toMatchObject({ status: 'blocked', assignee_agent_key: cedar.agentKey });
    const done = await taskIn(world, 'done');
    await expectRefused(world, (tx) => reassignTaskAsPerson(tx, ROOM, done.number, world.person, { agentKey: cedar.agentKey }), 'T1',
      'Invalid transition: done -> assigned. Allowed: accepted');
  });
});

describe('a removed agent and a resumed session', () => {
  it("releases the agent's work leases in that room only and returns the task numbers", async () => {
    const world = await makeWorld();
    const juniper = world.agent('Juniper');
    const a = await taskIn(world, 'in_progress', { holder: juniper });
    const b = await taskIn(world, 'merged', { holder: juniper });
    const reviewed = await taskIn(world, 'in_review');
    await world.write((tx) => claimReview(tx, ROOM, reviewed.number, juniper));
    const released = await world.write((tx) => releaseWorkLeasesOfSession(tx, ROOM, juniper.sessionId, world.person));
    expect(released).toEqual([a.number, b.number]);
    expect(await getTask(world.q, ROOM, a.number)).toMatchObject({ status: 'accepted', assignee: null });
    expect(await getTask(world.q, ROOM, b.number)).toMatchObject({ status: 'merged', active_leases: [] });
    expect(eventTexts(world.db).slice(-2)).toEqual([`Ada released task_${a.number}.`, `Ada released task_${b.number}.`]);
    expect(await activeLeasesOfSession(world.q, juniper.sessionId)).toEqual([{ taskNumber: reviewed.number, kind: 'review' }]);
  });

  it('lists the work and review leases a session holds, for resumed_work', async () => {
    const world = await makeWorld();
    const juniper = world.agent('Juniper');
    const a = await taskIn(world, 'in_progress', { holder: juniper });
    const b = await taskIn(world, 'in_review');
    await world.write((tx) => claimReview(tx, ROOM, b.number, juniper));
    expect(await activeLeasesOfSession(world.q, juniper.sessionId)).toEqual([
      { taskNumber: a.number, kind: 'work' }, { taskNumber: b.number, kind: 'review' },
    ]);
  });

  it('returns nothing and posts nothing for a session without leases', async () => {
    const world = await makeWorld();
    const juniper = world.agent('Juniper');
    const before = eventTexts(world.db).length;
    expect(await world.write((tx) => releaseWorkLeasesOfSession(tx, ROOM, juniper.sessionId, world.person))).toEqual([]);
    expect(eventTexts(world.db).length).toBe(before);
  });
});
