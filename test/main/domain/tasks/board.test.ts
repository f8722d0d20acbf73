// The task object, the board and the status history.
import { describe, expect, it } from 'vitest';
import {
  addTask, getBoard, getTask, listTaskHistory, parseTaskId, updateTask, ARTIFACT_DETAIL_INSTRUCTION,
} from '../../../../src/main/domain/tasks';
import { insertMessageRow } from '../../../../src/main/store/messageRows';
import { ROOM, makeWorld } from './world';
import { taskIn } from './scenarios';

describe('the task object', () => {
  it('has exactly the fields of mcp-tools §6, in order', async () => {
    const world = await makeWorld();
    await world.write((tx) => insertMessageRow(tx, { roomId: ROOM, kind: 'message', source: 'human', sender: 'Ada', text: 'x' }));
    const juniper = world.agent('Juniper');
    await world.write((tx) => addTask(tx, ROOM, world.person, { title: 'Fix login', sourceMessageId: 'msg_1' }));
    await world.write((tx) => updateTask(tx, ROOM, 1, juniper, { status: 'assigned' }));
    const task = await getTask(world.q, ROOM, 1);
    expect(Object.keys(task)).toEqual([
      'id', 'title', 'description', 'status', 'assignee', 'assignee_agent_key', 'assignee_agent_instance_id',
      'assignee_agent_session_id', 'created_by', 'source_message_id', 'pr_url', 'workflow_artifacts', 'workflow_refs',
      'active_leases', 'created_at', 'updated_at',
    ]);
    expect(task).toMatchObject({
      id: 'task_1', title: 'Fix login', description: null, status: 'assigned', assignee: juniper.label,
      assignee_agent_key: juniper.agentKey, assignee_agent_instance_id: null, assignee_agent_session_id: juniper.sessionId,
      created_by: 'Ada', source_message_id: 'msg_1', pr_url: null, workflow_artifacts: [], workflow_refs: [],
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Object.keys(task.active_leases[0])).toEqual(['id', 'kind', 'holder_label', 'agent_key', 'agent_session_id', 'status', 'created_at', 'updated_at']);
  });

  it('an unknown or malformed task id is T3', async () => {
    const world = await makeWorld();
    await expect(getTask(world.q, ROOM, 1)).rejects.toThrow('Task not found.');
    for (const id of ['task_0', 'task_01', 'msg_1', 'task_2147483648', 7]) expect(() => parseTaskId(id)).toThrow('Task not found.');
    expect(parseTaskId('task_2147483647')).toBe(2147483647);
  });
});

describe('the board', () => {
  it('lists open tasks in number order, keeping merged and dropping done and cancelled', async () => {
    const world = await makeWorld();
    for (const s of ['done', 'merged', 'cancelled', 'proposed', 'in_review'] as const) await taskIn(world, s);
    const ids = (b: { id: string; status: string }[]) => b.map((t) => `${t.id}:${t.status}`);
    expect(ids(await getBoard(world.q, ROOM))).toEqual(['task_2:merged', 'task_4:proposed', 'task_5:in_review']);
    expect(ids(await getBoard(world.q, ROOM, { openOnly: false }))).toHaveLength(5);
    expect(ids(await getBoard(world.q, ROOM, { status: 'done' }))).toEqual(['task_1:done']);
    // open_only is ignored when a status is given.
    expect(ids(await getBoard(world.q, ROOM, { status: 'cancelled', openOnly: true }))).toEqual(['task_3:cancelled']);
    expect(await getBoard(world.q, ROOM, { status: 'shipped' })).toEqual([]);
  });

  it('shows only the last 4 workflow artifacts with counts', async () => {
    const world = await makeWorld();
    const a = world.agent('Juniper');
    await world.write((tx) => addTask(tx, ROOM, a, { title: 'many' }));
    await world.write((tx) => addTask(tx, ROOM, a, { title: 'few' }));
    const many = Array.from({ length: 6 }, (_, i) => ({ provider: 'github', kind: 'check_run', number: i + 1 }));
    await world.write((tx) => updateTask(tx, ROOM, 1, a, { workflowArtifacts: many }));
    await world.write((tx) => updateTask(tx, ROOM, 2, a, { workflowArtifacts: many.slice(0, 4) }));
    const [first, second] = await getBoard(world.q, ROOM);
    expect(first.workflow_artifacts.map((x) => x.number)).toEqual([3, 4, 5, 6]);
    expect(first).toMatchObject({ workflow_artifact_count: 6, workflow_ref_count: 0, workflow_artifacts_truncated: true, workflow_refs_truncated: false, workflow_refs: [] });
    expect(second).toMatchObject({ workflow_artifact_count: 4, workflow_artifacts_truncated: false });
    expect((await getTask(world.q, ROOM, 1)).workflow_artifacts).toHaveLength(6);
    expect(ARTIFACT_DETAIL_INSTRUCTION).toBe(
      'Only the last 4 workflow artifacts per task are shown. Call get_room_artifacts with task_id for the full list.');
  });
});

describe('status history', () => {
  it('records each status change with who and when, oldest first', async () => {
    const world = await makeWorld();
    const { number, holder, creator } = await taskIn(world, 'in_review');
    const history = await listTaskHistory(world.q, ROOM, number);
    expect(history.map((h) => [h.from_status, h.to_status, h.actor_label])).toEqual([
      [null, 'proposed', creator.label],
      ['proposed', 'accepted', 'Ada'],
      ['accepted', 'assigned', holder.label],
      ['assigned', 'in_progress', holder.label],
      ['in_progress', 'in_review', holder.label],
    ]);
    expect(history.map((h) => h.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('T3 for an unknown task', async () => {
    const world = await makeWorld();
    await expect(listTaskHistory(world.q, ROOM, 3)).rejects.toThrow('Task not found.');
  });
});
