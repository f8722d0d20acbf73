// update_task and complete_task: assignee rules (T4, T5), claiming through "assigned",
// what is and is not a transition, the one event per write, and presence.
import { describe, expect, it } from 'vitest';
import { completeTask, getTask, updateTask } from '../../../../src/main/domain/tasks';
import { ROOM, eventTexts, expectRefused, makeWorld, presenceOf, snapshot } from './world';
import { taskIn } from './scenarios';

const T4 = 'Use claim_task or handoff_task_lease to change task ownership.';
const T5 = 'Use handoff_task_lease to assign work to another worker.';

describe('assignee fields through update_task', () => {
  it('naming another worker is T5', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, holder, { assignee: 'Cedar' }), 'T5', T5);
    const accepted = await taskIn(world, 'accepted');
    const birch = world.agent('Birch');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, accepted.number, birch, { status: 'assigned', assignee: 'Cedar' }), 'T5', T5);
  });

  it('clearing the assignee, or naming oneself without claiming, is T4', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, holder, { assignee: null }), 'T4', T4);
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, holder, { assignee: '' }), 'T4', T4);
    const accepted = await taskIn(world, 'accepted');
    const birch = world.agent('Birch');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, accepted.number, birch, { assignee: 'Birch' }), 'T4', T4);
  });

  it('repeating the current assignee is not a change', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'blocked', assignee: holder.label }));
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'in_progress', assignee: `@${holder.displayName}` }));
    expect((await getTask(world.q, ROOM, number)).status).toBe('in_progress');
  });

  it('status "assigned" with no assignee or oneself claims the task', async () => {
    const world = await makeWorld();
    const a = await taskIn(world, 'accepted');
    const b = await taskIn(world, 'accepted');
    const birch = world.agent('Birch');
    await world.write((tx) => updateTask(tx, ROOM, a.number, birch, { status: 'assigned' }));
    await world.write((tx) => updateTask(tx, ROOM, b.number, birch, { status: 'assigned', assignee: 'birch' }));
    for (const n of [a.number, b.number]) {
      expect(await getTask(world.q, ROOM, n)).toMatchObject({ status: 'assigned', assignee_agent_key: birch.agentKey, active_leases: [{ kind: 'work' }] });
    }
    expect(eventTexts(world.db).slice(-2)).toEqual([`Birch claimed task_${a.number}.`, `Birch claimed task_${b.number}.`]);
    expect(presenceOf(world.db, birch.sessionId)).toEqual({ status: 'working', status_text: `claimed task_${b.number}` });
  });

  it('status "assigned" follows the claim rules (T10)', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_progress');
    const birch = world.agent('Birch');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, birch, { status: 'assigned' }), 'T10',
      'Task is already held by another worker. Ask its holder to hand it off.');
  });
});

describe('what is not a transition', () => {
  it('a missing, blank or current status changes nothing and posts nothing', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'assigned');
    const before = snapshot(world.db);
    for (const status of [undefined, null, '', '  ', 'assigned']) {
      const { task } = await world.write((tx) => updateTask(tx, ROOM, number, holder, { status }));
      expect(task.status).toBe('assigned');
    }
    expect(snapshot(world.db)).toBe(before);
  });

  it('an unknown status is T1 with the allowed list', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'assigned');
    await expectRefused(world, (tx) => updateTask(tx, ROOM, number, holder, { status: 'shipped' }), 'T1',
      'Invalid transition: assigned -> shipped. Allowed: in_progress, in_review, cancelled');
  });

  it('T3 for an unknown task', async () => {
    const world = await makeWorld();
    await expectRefused(world, (tx) => updateTask(tx, ROOM, 7, world.person, { status: 'accepted' }), 'T3', 'Task not found.');
  });
});

describe('one event per write', () => {
  it('a move with edits posts only the move', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const before = eventTexts(world.db).length;
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'in_review', prUrl: 'https://x/pr/3' }));
    expect(eventTexts(world.db).slice(before)).toEqual([`task_${number} moved from in_progress to in_review by ${holder.displayName}.`]);
  });

  it('an edit alone posts "updated"', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { prUrl: 'https://x/pr/3' }));
    expect(eventTexts(world.db).at(-1)).toBe(`${holder.displayName} updated task_${number}.`);
  });

  it('a person moving a task is named by their label', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'proposed');
    await world.write((tx) => updateTask(tx, ROOM, number, world.person, { status: 'accepted' }));
    expect(eventTexts(world.db).at(-1)).toBe(`task_${number} moved from proposed to accepted by Ada.`);
  });

  it('emits task.changed for the task after the commit', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    world.published.length = 0;
    await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: 'blocked' }));
    expect(world.published).toContainEqual({ type: 'task.changed', place: 'local', roomId: ROOM, number });
  });
});

describe('presence follows the new status', () => {
  const cases = [
    ['in_progress', 'blocked', 'blocked', 'blocked on task_N'],
    ['blocked', 'in_progress', 'working', 'working on task_N'],
    ['in_progress', 'in_review', 'reviewing', 'task_N in review'],
    ['in_progress', 'done', 'idle', 'available in room'],
    ['in_progress', 'cancelled', 'idle', 'available in room'],
  ] as const;
  for (const [from, to, status, text] of cases) {
    it(`${from} -> ${to} sets ${status}`, async () => {
      const world = await makeWorld();
      const { number, holder } = await taskIn(world, from);
      await world.write((tx) => updateTask(tx, ROOM, number, holder, { status: to }));
      expect(presenceOf(world.db, holder.sessionId)).toEqual({ status, status_text: text.replace('N', String(number)) });
    });
  }
});

describe('complete_task', () => {
  it("moves the holder's task to in_review with the PR link and sets it reviewing", async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_progress');
    const { task } = await world.write((tx) => completeTask(tx, ROOM, number, holder, { prUrl: 'https://x/pr/5' }));
    expect(task).toMatchObject({ status: 'in_review', pr_url: 'https://x/pr/5' });
    expect(eventTexts(world.db).at(-1)).toBe(`task_${number} moved from in_progress to in_review by ${holder.displayName}.`);
    expect(presenceOf(world.db, holder.sessionId).status).toBe('reviewing');
  });

  it('works straight from assigned', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'assigned');
    await world.write((tx) => completeTask(tx, ROOM, number, holder));
    expect((await getTask(world.q, ROOM, number)).status).toBe('in_review');
  });

  it('T1 where in_review is not allowed', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    const birch = world.agent('Birch');
    await expectRefused(world, (tx) => completeTask(tx, ROOM, number, birch), 'T1',
      'Invalid transition: accepted -> in_review. Allowed: assigned, cancelled');
  });

  it('again on a task already in review only updates the link', async () => {
    const world = await makeWorld();
    const { number, holder } = await taskIn(world, 'in_review');
    await world.write((tx) => completeTask(tx, ROOM, number, holder, { prUrl: 'https://x/pr/6' }));
    expect(await getTask(world.q, ROOM, number)).toMatchObject({ status: 'in_review', pr_url: 'https://x/pr/6' });
    expect(eventTexts(world.db).at(-1)).toBe(`${holder.displayName} updated task_${number}.`);
  });
});
