import { describe, expect, it } from 'vitest';
import { addTask, getTask, listTaskHistory } from '../../../../src/main/domain/tasks';
import { insertMessageRow } from '../../../../src/main/store/messageRows';
import { ROOM, OTHER_ROOM, eventTexts, expectRefused, makeWorld } from './world';

describe('creating a task', () => {
  it("an agent's task starts proposed, created by its actor label, and the room hears about it", async () => {
    const world = await makeWorld();
    const juniper = world.agent('Juniper');
    const task = await world.write((tx) => addTask(tx, ROOM, juniper, { title: '  Fix login  ', description: 'It fails.' }));
    expect(task).toMatchObject({ id: 'task_1', title: 'Fix login', description: 'It fails.', status: 'proposed', created_by: juniper.label });
    expect(eventTexts(world.db)).toEqual(['Juniper proposed task_1: Fix login']);
    expect(await listTaskHistory(world.q, ROOM, 1)).toMatchObject([{ seq: 1, from_status: null, to_status: 'proposed', actor_label: juniper.label }]);
    expect(world.published).toContainEqual({ type: 'task.changed', place: 'local', roomId: ROOM, number: 1 });
  });

  it("a person's task starts accepted, unless the person chooses to propose it", async () => {
    const world = await makeWorld();
    const added = await world.write((tx) => addTask(tx, ROOM, world.person, { title: 'Fix login' }));
    const proposed = await world.write((tx) => addTask(tx, ROOM, world.person, { title: 'Maybe later', propose: true }));
    expect([added.status, proposed.status]).toEqual(['accepted', 'proposed']);
    expect(eventTexts(world.db)).toEqual(['Ada added task_1: Fix login', 'Ada proposed task_2: Maybe later']);
  });

  it('numbers tasks per room, densely', async () => {
    const world = await makeWorld();
    const a = world.agent('Juniper');
    const ids = await world.write(async (tx) => [
      (await addTask(tx, ROOM, a, { title: 'one' })).id,
      (await addTask(tx, ROOM, a, { title: 'two' })).id,
      (await addTask(tx, OTHER_ROOM, world.person, { title: 'elsewhere' })).id,
    ]);
    expect(ids).toEqual(['task_1', 'task_2', 'task_1']);
  });

  it('links the message the task came from', async () => {
    const world = await makeWorld();
    await world.write((tx) => insertMessageRow(tx, { roomId: ROOM, kind: 'message', source: 'human', sender: 'Ada', text: 'login broke' }));
    const juniper = world.agent('Juniper');
    const task = await world.write((tx) => addTask(tx, ROOM, juniper, { title: 'Fix login', sourceMessageId: 'msg_1' }));
    expect(task.source_message_id).toBe('msg_1');
  });

  it('refuses a blank title with T2 and uses up no task or message number', async () => {
    const world = await makeWorld();
    const a = world.agent('Juniper');
    for (const title of ['', '   ', undefined, 42]) {
      await expectRefused(world, (tx) => addTask(tx, ROOM, a, { title }), 'T2', 'Task title is required.');
    }
    const task = await world.write((tx) => addTask(tx, ROOM, a, { title: 'first real' }));
    expect(task.id).toBe('task_1');
    expect(eventTexts(world.db)).toEqual(['Juniper proposed task_1: first real']);
  });

  it('accepts a 500-character title and refuses 501 characters', async () => {
    const world = await makeWorld();
    const a = world.agent('Juniper');
    await expectRefused(world, (tx) => addTask(tx, ROOM, a, { title: 'x'.repeat(501) }), 'invalid_input',
      'Task title must not exceed 500 characters.');
    // Characters, not UTF-16 units: 500 emoji fit.
    const task = await world.write((tx) => addTask(tx, ROOM, a, { title: '🦊'.repeat(500) }));
    expect(task.id).toBe('task_1');
  });

  it('refuses a description over 20 000 characters', async () => {
    const world = await makeWorld();
    const a = world.agent('Juniper');
    await expectRefused(world, (tx) => addTask(tx, ROOM, a, { title: 't', description: 'd'.repeat(20_001) }), 'invalid_input',
      'Task description must not exceed 20000 characters.');
    await world.write((tx) => addTask(tx, ROOM, a, { title: 't', description: 'd'.repeat(20_000) }));
    expect((await getTask(world.q, ROOM, 1)).description).toHaveLength(20_000);
  });

  it('refuses a source message that is malformed, missing or in another room with M2', async () => {
    const world = await makeWorld();
    await world.write((tx) => insertMessageRow(tx, { roomId: OTHER_ROOM, kind: 'message', source: 'human', sender: 'Ada', text: 'hi' }));
    const a = world.agent('Juniper');
    for (const id of ['msg_01', 'msg_0', 'task_1', 'msg_2147483648', 'msg_1', 'msg_9']) {
      await expectRefused(world, (tx) => addTask(tx, ROOM, a, { title: 't', sourceMessageId: id }), 'M2',
        'reply_to must reference an existing local message in this room.');
    }
  });
});
