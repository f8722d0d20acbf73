// The review lease (data-model.md §4.5).
import { describe, expect, it } from 'vitest';
import { claimReview, getTask, releaseReview, updateTask, forceReleaseReview, releaseWorkLease } from '../../../../src/main/domain/tasks';
import { ROOM, eventTexts, expectRefused, leaseRows, makeWorld, presenceOf } from './world';
import { taskIn } from './scenarios';

const REVIEW_ID = /^local_review_\d{13}_[0-9a-z]+$/;

describe('claiming review', () => {
  it('creates a review lease held under the actor label, says so and sets the reviewer reviewing', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    const { lease, task } = await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    expect(lease).toMatchObject({ id: expect.stringMatching(REVIEW_ID), kind: 'review', holder_label: cedar.label, agent_key: cedar.agentKey, status: 'active' });
    expect(task.active_leases.map((l) => l.kind)).toEqual(['work', 'review']);
    expect(eventTexts(world.db).at(-1)).toBe(`Cedar is reviewing task_${number}.`);
    expect(presenceOf(world.db, cedar.sessionId)).toEqual({ status: 'reviewing', status_text: `reviewing task_${number}` });
  });

  it('a repeat by the holder reuses its lease id', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    const first = await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    const again = await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    expect(again.lease.id).toBe(first.lease.id);
    expect(leaseRows(world.db, number).filter((l) => l.kind === 'review')).toHaveLength(1);
  });

  it('T6 for the agent holding the task, even through another session', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    const phrase = 'A worker holding the task cannot also claim review authority.';
    await expectRefused(world, (tx) => claimReview(tx, ROOM, number, holder), 'T6', phrase);
    const other = world.agent('Juniper2', { agentKey: holder.agentKey });
    await expectRefused(world, (tx) => claimReview(tx, ROOM, number, other), 'T6', phrase);
  });

  it('T7 when another agent already reviews', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    const birch = world.agent('Birch');
    await expectRefused(world, (tx) => claimReview(tx, ROOM, number, birch), 'T7',
      'Review authority is already held by another local reviewer.');
  });

  it('T3 for an unknown task', async () => {
    const world = await makeWorld();
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => claimReview(tx, ROOM, 5, cedar), 'T3', 'Task not found.');
  });
});

describe('releasing review', () => {
  it('ends the lease as released, says so and sets the reviewer idle', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    const { lease } = await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    const result = await world.write((tx) => releaseReview(tx, ROOM, number, cedar, { leaseId: lease.id }));
    expect(result.released_lease).toMatchObject({ id: lease.id, status: 'released' });
    expect(result.task.active_leases.map((l) => l.kind)).toEqual(['work']);
    expect(eventTexts(world.db).at(-1)).toBe(`Cedar released review of task_${number}.`);
    expect(presenceOf(world.db, cedar.sessionId).status).toBe('idle');
  });

  it('T8 for a lease id that is not the active one', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await expectRefused(world, (tx) => releaseReview(tx, ROOM, number, cedar, { leaseId: 'local_review_1_old' }), 'T8',
      'Review lease id did not match the active local review authority.');
  });

  it('returns released_lease null and posts nothing when no review is active', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const before = eventTexts(world.db).length;
    const cedar = world.agent('Cedar');
    const result = await world.write((tx) => releaseReview(tx, ROOM, number, cedar));
    expect(result.released_lease).toBeNull();
    expect(eventTexts(world.db).length).toBe(before);
  });

  it("a person may release anyone's review", async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    const result = await world.write((tx) => forceReleaseReview(tx, ROOM, number, world.person));
    expect(result.released_lease?.status).toBe('released');
    expect(eventTexts(world.db).at(-1)).toBe(`Ada released review of task_${number}.`);
  });
});

describe('the review lease ends by itself', () => {
  it('survives changes requested (in_progress, blocked), so the same reviewer reviews again', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    const { lease } = await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: 'in_progress' }));
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'blocked' }));
    expect((await getTask(world.q, ROOM, number)).active_leases.find((l) => l.kind === 'review')?.id).toBe(lease.id);
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'in_review' }));
    const again = await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    expect(again.lease.id).toBe(lease.id);
  });

  it('ends as released when the task goes back to accepted', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await world.write((tx) => releaseWorkLease(tx, ROOM, number, holder));
    expect(leaseRows(world.db, number).map((l) => [l.kind, l.status])).toEqual([['work', 'released'], ['review', 'released']]);
  });

  it('ends when a merged task is reopened', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: 'merged' }));
    expect((await getTask(world.q, ROOM, number)).active_leases).toHaveLength(2);
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'accepted' }));
    expect((await getTask(world.q, ROOM, number)).active_leases).toEqual([]);
  });
});
