// data-model.md §4.3, row by row, for agents (people pass every row; see transitions and leases tests).
import { describe, expect, it } from 'vitest';
import {
  claimReview, claimTask, completeTask, getTask, handoffTask, releaseReview, releaseWorkLease, updateTask,
  type TaskStatus,
} from '../../../../src/main/domain/tasks';
import { ROOM, expectRefused, makeWorld } from './world';
import { taskIn } from './scenarios';

const T9 = 'Only the worker holding this task can change it.';
const T12 = 'This worker may not change this task.';

describe('accepting a proposal', () => {
  it('another agent may accept it', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'proposed');
    const cedar = world.agent('Cedar');
    await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: 'accepted' }));
    expect((await getTask(world.q, ROOM, number)).status).toBe('accepted');
  });

  it('the agent that proposed it may not (T11), even from another session', async () => {
    const world = await makeWorld();
    const { number, creator } = await taskIn(world, 'proposed');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, creator, { status: 'accepted' }), 'T11',
      'A task must be accepted by someone other than the worker that proposed it.');
    const sameAgentOtherSession = world.agent('Maple again', { agentKey: (creator as { agentKey: string }).agentKey });
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, sameAgentOtherSession, { status: 'accepted' }), 'T11',
      'A task must be accepted by someone other than the worker that proposed it.');
  });
});

describe('claiming', () => {
  it('any agent may claim an accepted task no one holds', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const cedar = world.agent('Cedar');
    const { task } = await world.write((tx) => claimTask(tx, ROOM, number, cedar));
    expect(task).toMatchObject({ status: 'assigned', assignee: cedar.label, assignee_agent_key: cedar.agentKey });
  });

  it('is refused with T10 when another agent holds the task', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_progress');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => claimTask(tx, ROOM, number, cedar), 'T10',
      'Task is already held by another worker. Ask its holder to hand it off.');
  });

  it("is refused with T17 for the task's reviewer", async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await expectRefused(world, (tx) => claimTask(tx, ROOM, number, cedar), 'T17', "The task's reviewer cannot also take its work lease.");
  });
});

describe('moving a held task, complete_task and release_task_lease', () => {
  const moves: [TaskStatus, TaskStatus][] = [
    ['assigned', 'in_progress'], ['assigned', 'in_review'], ['assigned', 'cancelled'],
    ['in_progress', 'blocked'], ['in_progress', 'in_review'], ['in_progress', 'done'], ['in_progress', 'cancelled'],
    ['blocked', 'in_progress'], ['blocked', 'in_review'], ['blocked', 'cancelled'],
    ['in_review', 'merged'], ['in_review', 'in_progress'], ['in_review', 'blocked'], ['in_review', 'done'], ['in_review', 'cancelled'],
  ];
  for (const [from, to] of moves) {
    it(`only the holder moves ${from} -> ${to} (T9 for others, the creator included)`, async () => {
      const world = await makeWorld();
      const { number, holder, creator } = await taskIn(world, from);
      const cedar = world.agent('Cedar');
      await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { status: to }), 'T9', T9);
      await expectRefused(world, (tx) => updateTask(tx, ROOM, number, creator, { status: to }), 'T9', T9);
      await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: to }));
      expect((await getTask(world.q, ROOM, number)).status).toBe(to);
    });
  }

  it('complete_task and release_task_lease by a non-holder fail with T9', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_progress');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => completeTask(tx, ROOM, number, cedar), 'T9', T9);
    await expectRefused(world, (tx) => releaseWorkLease(tx, ROOM, number, cedar), 'T9', T9);
  });

  it('release_task_lease on a task no one holds fails with T9', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => releaseWorkLease(tx, ROOM, number, cedar), 'T9', T9);
  });
});

describe('the reviewer', () => {
  for (const to of ['in_progress', 'blocked', 'merged', 'done'] as const) {
    it(`may move in_review -> ${to}`, async () => {
      const world = await makeWorld();
      const { number } = await taskIn(world, 'in_review');
      const cedar = world.agent('Cedar');
      await world.write((tx) => claimReview(tx, ROOM, number, cedar));
      await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: to }));
      expect((await getTask(world.q, ROOM, number)).status).toBe(to);
    });
  }

  it('may not cancel a task in review (T9)', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { status: 'cancelled' }), 'T9', T9);
  });

  it('may not move a task back once it left review (T9 from in_progress)', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: 'in_progress' }));
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { status: 'in_review' }), 'T9', T9);
  });

  it('may close a merged task (merged -> done), as may its holder; others get T9', async () => {
    const world = await makeWorld();
    const { number, creator } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: 'merged' }));
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, creator, { status: 'done' }), 'T9', T9);
    await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: 'done' }));
    expect((await getTask(world.q, ROOM, number)).status).toBe('done');
  });

  it('a merged task whose lease was released may be closed by its creator or last holder only (T12)', async () => {
    const world = await makeWorld();
    const { number, creator, holder } = await taskIn(world, 'merged');
    await world.write((tx) => releaseWorkLease(tx, ROOM, number, holder));
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { status: 'done' }), 'T12', T12);
    await world.write((tx) => updateTask(tx, ROOM, number, creator, { status: 'done' }));
    expect((await getTask(world.q, ROOM, number)).status).toBe('done');
  });
});

describe('handing off', () => {
  it('the holder may hand off; another agent may not (T9)', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => handoffTask(tx, ROOM, number, cedar, { targetAgentKey: cedar.agentKey }), 'T9', T9);
    await world.write((tx) => handoffTask(tx, ROOM, number, holder, { targetAgentKey: cedar.agentKey }));
    expect((await getTask(world.q, ROOM, number)).assignee_agent_key).toBe(cedar.agentKey);
  });

  it('any agent may hand off an accepted task no one holds', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const cedar = world.agent('Cedar');
    const birch = world.agent('Birch');
    await world.write((tx) => handoffTask(tx, ROOM, number, birch, { targetAgentKey: cedar.agentKey }));
    expect(await getTask(world.q, ROOM, number)).toMatchObject({ status: 'assigned', assignee_agent_key: cedar.agentKey });
  });

  it('an agent may not hand off an unheld task that is not accepted (T9)', async () => {
    const world = await makeWorld();
    const { number, creator } = await taskIn(world, 'proposed');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => handoffTask(tx, ROOM, number, creator, { targetAgentKey: cedar.agentKey }), 'T9', T9);
  });
});

describe('cancelling an unheld task', () => {
  for (const from of ['proposed', 'accepted'] as const) {
    it(`only its creator may cancel a ${from} task (T12 for others)`, async () => {
      const world = await makeWorld();
      const { number, creator } = await taskIn(world, from);
      const cedar = world.agent('Cedar');
      await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { status: 'cancelled' }), 'T12', T12);
      await world.write((tx) => updateTask(tx, ROOM, number, creator, { status: 'cancelled' }));
      expect((await getTask(world.q, ROOM, number)).status).toBe('cancelled');
    });
  }

  it("no agent may cancel a person's unheld task", async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted', { creator: { kind: 'person', label: 'Ada' } });
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { status: 'cancelled' }), 'T12', T12);
  });
});

describe('reopening', () => {
  for (const from of ['merged', 'done', 'cancelled'] as const) {
    it(`the creator may reopen a ${from} task; a stranger may not (T12)`, async () => {
      const world = await makeWorld();
      const { number, creator } = await taskIn(world, from);
      const cedar = world.agent('Cedar');
      await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { status: 'accepted' }), 'T12', T12);
      await world.write((tx) => updateTask(tx, ROOM, number, creator, { status: 'accepted' }));
      expect((await getTask(world.q, ROOM, number)).status).toBe('accepted');
    });
  }

  for (const from of ['merged', 'done'] as const) {
    it(`the last holder may reopen a ${from} task`, async () => {
      const world = await makeWorld();
      const { number, holder } = await taskIn(world, from);
      await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'accepted' }));
      expect(await getTask(world.q, ROOM, number)).toMatchObject({ status: 'accepted', assignee: null, active_leases: [] });
    });
  }

  it('a former holder that released the task is still its last holder', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'assigned');
    await world.write((tx) => releaseWorkLease(tx, ROOM, number, holder));
    await world.write((tx) => updateTask(tx, ROOM, number, world.person, { status: 'cancelled' }));
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'accepted' }));
    expect((await getTask(world.q, ROOM, number)).status).toBe('accepted');
  });
});

describe('editing pr_url and workflow_artifacts', () => {
  const artifacts = [{ provider: 'github', kind: 'pull_request', number: 12 }];

  it('the holder may edit; others get T9 while the task is held, the creator included', async () => {
    const world = await makeWorld();
    const { number, holder, creator } = await taskIn(world, 'in_progress');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, creator, { prUrl: 'https://x/pr/1' }), 'T9', T9);
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { workflowArtifacts: artifacts }), 'T9', T9);
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { prUrl: 'https://x/pr/1', workflowArtifacts: artifacts }));
    expect(await getTask(world.q, ROOM, number)).toMatchObject({ pr_url: 'https://x/pr/1', workflow_artifacts: [{ number: 12 }] });
  });

  it('when no one holds the task only its creator may edit (T12)', async () => {
    const world = await makeWorld();
    const { number, creator } = await taskIn(world, 'accepted');
    const cedar = world.agent('Cedar');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, cedar, { prUrl: 'https://x/pr/1' }), 'T12', T12);
    await world.write((tx) => updateTask(tx, ROOM, number, creator, { workflowArtifacts: artifacts }));
    expect((await getTask(world.q, ROOM, number)).workflow_artifacts).toHaveLength(1);
  });

  it('repeating the current value needs no permission and changes nothing', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { prUrl: 'https://x/pr/1' }));
    const cedar = world.agent('Cedar');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await world.write((tx) => updateTask(tx, ROOM, number, cedar, { status: 'merged', prUrl: 'https://x/pr/1' }));
    expect(await getTask(world.q, ROOM, number)).toMatchObject({ status: 'merged', pr_url: 'https://x/pr/1' });
  });

  it('people may edit any task', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_progress');
    await world.write((tx) => updateTask(tx, ROOM, number, world.person, { prUrl: 'https://x/pr/9' }));
    expect((await getTask(world.q, ROOM, number)).pr_url).toBe('https://x/pr/9');
  });
});

describe('force-releasing', () => {
  it("an agent may not release another agent's work (T9) or review (T14); a person may release both", async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_review');
    const cedar = world.agent('Cedar');
    const birch = world.agent('Birch');
    await world.write((tx) => claimReview(tx, ROOM, number, cedar));
    await expectRefused(world, (tx) => releaseWorkLease(tx, ROOM, number, birch), 'T9', T9);
    await expectRefused(world, (tx) => releaseReview(tx, ROOM, number, birch), 'T14', 'This worker does not hold review authority for this task.');
    await world.write((tx) => releaseReview(tx, ROOM, number, world.person));
    await world.write((tx) => releaseWorkLease(tx, ROOM, number, world.person));
    expect(await getTask(world.q, ROOM, number)).toMatchObject({ status: 'accepted', active_leases: [] });
  });
});
