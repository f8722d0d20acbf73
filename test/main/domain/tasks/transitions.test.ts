import { describe, expect, it } from 'vitest';
import {
  assertTransition, moveTaskAsPerson, TASK_STATUSES, TRANSITIONS, HELD_STATUSES, isOpenStatus, getTask, listTaskHistory,
  type TaskStatus,
} from '../../../../src/main/domain/tasks';
import { ROOM, eventTexts, expectRefused, makeWorld } from './world';
import { taskIn } from './scenarios';

// The table of data-model.md §4.2, written out again so a change to the code's table fails here.
const SPEC: Record<TaskStatus, string> = {
  proposed: 'accepted, cancelled',
  accepted: 'assigned, cancelled',
  assigned: 'in_progress, in_review, cancelled',
  in_progress: 'blocked, in_review, done, cancelled',
  blocked: 'in_progress, in_review, cancelled',
  in_review: 'merged, in_progress, blocked, done, cancelled',
  merged: 'done, accepted',
  done: 'accepted',
  cancelled: 'accepted',
};

describe('the transition table', () => {
  it('lists the statuses and each row in the spec order', () => {
    expect(TASK_STATUSES).toEqual(['proposed', 'accepted', 'assigned', 'in_progress', 'blocked', 'in_review', 'merged', 'done', 'cancelled']);
    for (const from of TASK_STATUSES) expect(TRANSITIONS[from].join(', ')).toBe(SPEC[from]);
  });

  it('knows which statuses are held and which are open', () => {
    expect([...HELD_STATUSES]).toEqual(['assigned', 'in_progress', 'blocked', 'in_review']);
    expect(TASK_STATUSES.filter(isOpenStatus)).toEqual(['proposed', 'accepted', 'assigned', 'in_progress', 'blocked', 'in_review', 'merged']);
  });

  for (const from of TASK_STATUSES) {
    for (const to of [...TASK_STATUSES, 'shipped']) {
      const allowed = SPEC[from].split(', ').includes(to);
      it(`${allowed ? 'allows' : 'refuses'} ${from} -> ${to}`, () => {
        if (allowed) expect(() => assertTransition(from, to)).not.toThrow();
        else expect(() => assertTransition(from, to)).toThrow(`Invalid transition: ${from} -> ${to}. Allowed: ${SPEC[from]}`);
      });
    }
  }

  it('gives the spec example phrase word for word', () => {
    expect(() => assertTransition('proposed', 'assigned')).toThrow('Invalid transition: proposed -> assigned. Allowed: accepted, cancelled');
  });
});

describe('a person moving cards on the board', () => {
  // Every row, through the real store: allowed moves land (one event, one history row),
  // refused ones fail with T1 and change nothing. "assigned" goes through reassign instead.
  for (const from of TASK_STATUSES) {
    for (const to of TASK_STATUSES) {
      if (to === from || to === 'assigned') continue;
      const allowed = SPEC[from].split(', ').includes(to);
      it(`${allowed ? 'can' : 'cannot'} move a ${from} task to ${to}`, async () => {
        const world = await makeWorld();
        const { number } = await taskIn(world, from);
        if (!allowed) {
          await expectRefused(world, (tx) => moveTaskAsPerson(tx, ROOM, number, world.person, to), 'T1',
            `Invalid transition: ${from} -> ${to}. Allowed: ${SPEC[from]}`);
          return;
        }
        const eventsBefore = eventTexts(world.db).length;
        await world.write((tx) => moveTaskAsPerson(tx, ROOM, number, world.person, to));
        expect((await getTask(world.q, ROOM, number)).status).toBe(to);
        expect(eventTexts(world.db).slice(eventsBefore)).toEqual([`task_${number} moved from ${from} to ${to} by Ada.`]);
        const last = (await listTaskHistory(world.q, ROOM, number)).at(-1)!;
        expect(last).toMatchObject({ from_status: from, to_status: to, actor_label: 'Ada' });
      });
    }
  }

  it('is refused with T1 when moving a proposed task straight to assigned', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'proposed');
    await expectRefused(world, (tx) => moveTaskAsPerson(tx, ROOM, number, world.person, 'assigned'), 'T1',
      'Invalid transition: proposed -> assigned. Allowed: accepted, cancelled');
  });

  it('is told to hand the task off when dragging an accepted task to assigned', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'accepted');
    await expectRefused(world, (tx) => moveTaskAsPerson(tx, ROOM, number, world.person, 'assigned'), 'invalid_input',
      'To assign a task, hand it off to an agent.');
  });

  it('changes nothing when a card is dropped on its own column', async () => {
    const world = await makeWorld();
    const { number } = await taskIn(world, 'in_progress');
    const before = eventTexts(world.db).length;
    await world.write((tx) => moveTaskAsPerson(tx, ROOM, number, world.person, 'in_progress'));
    expect(eventTexts(world.db).length).toBe(before);
  });
});
