import { describe, expect, it } from 'vitest';
import { eventsOf, setUpApi, type ApiHarness, type TestAgent } from './harness';

/** An agent-held task taken through claim and complete to in_review (task_1 in room "lab"). */
async function taskInReview(h: ApiHarness, prUrl?: string): Promise<{ holder: TestAgent; reviewer: TestAgent }> {
  const holder = await h.agent('lab', 'Juniper');
  const reviewer = await h.agent('lab', 'Cedar');
  await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
  await holder.tool('claim_task', { task_id: 'task_1' });
  await holder.tool('update_task', { task_id: 'task_1', status: 'in_progress' });
  await holder.tool('complete_task', { task_id: 'task_1', ...(prUrl ? { pr_url: prUrl } : {}) });
  await reviewer.tool('claim_task_review', { task_id: 'task_1' });
  return { holder, reviewer };
}

describe('tasks.create', () => {
  it("creates a person's task accepted, or proposed when asked, and tells the UI", async () => {
    const h = await setUpApi();
    await h.room('lab');
    const me = (await h.app.auth.ownerIdentity()).ownerLabel;
    const card = await h.call('tasks.create', { roomId: 'lab', title: '  Fix login ', description: 'Steps…' });
    expect(card).toMatchObject({
      id: 'task_1', number: 1, roomId: 'lab', title: 'Fix login', status: 'accepted', assignee: null, reviewer: null, pr: null,
      createdBy: { label: me, name: me, agentKey: null }, proposedByAgent: false,
    });
    expect((await h.call('tasks.create', { roomId: 'lab', title: 'Maybe', propose: true })).status).toBe('proposed');
    expect(eventsOf(h.events, 'task.changed').map((e) => [e.task.id, e.task.status])).toEqual([['task_1', 'accepted'], ['task_2', 'proposed']]);
    expect(eventsOf(h.events, 'message.created').map((e) => e.message.text)).toEqual([`${me} added task_1: Fix login`, `${me} proposed task_2: Maybe`]);
  });

  it('assigns the new task to an agent of the room in the same write; an unknown agent or a proposal adds nothing (issue 35)', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const card = await h.call('tasks.create', { roomId: 'lab', title: 'Fix login', assignTo: juniper.agentKey });
    expect(card).toMatchObject({ id: 'task_1', status: 'assigned', assignee: { name: 'Juniper', agentKey: juniper.agentKey } });
    const before = h.snapshot();
    expect(await h.fail('tasks.create', { roomId: 'lab', title: 'Nobody', assignTo: 'ada/nobody' })).toEqual({ code: 'T15', message: 'No live worker with agent key ada/nobody in this room.' });
    expect(await h.fail('tasks.create', { roomId: 'lab', title: 'Maybe', propose: true, assignTo: juniper.agentKey })).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('assign it once it is accepted') });
    expect(h.snapshot()).toBe(before);
  });

  it('refuses a blank title, an unknown room and an archived room, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.room('old');
    await h.call('rooms.archive', { roomId: 'old', archived: true });
    const before = h.snapshot();
    expect(await h.fail('tasks.create', { roomId: 'lab', title: '  ' })).toEqual({ code: 'invalid_input', message: 'title: Task title is required.' });
    expect(await h.fail('tasks.create', { roomId: 'lab', title: 'x'.repeat(501) })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('tasks.create', { roomId: 'nowhere', title: 'X' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('tasks.create', { roomId: 'old', title: 'X' })).toEqual({ code: 'R4', message: 'This room is archived.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('tasks.board and tasks.get', () => {
  it('shows every task, closed ones too, with assignee, reviewer and who proposed it', async () => {
    const h = await setUpApi();
    const { holder, reviewer } = await taskInReview(h);
    await holder.tool('add_task', { title: 'Agent idea' });
    await h.call('tasks.create', { roomId: 'lab', title: 'Dropped' });
    await h.call('tasks.cancel', { roomId: 'lab', number: 3 });
    const board = await h.call('tasks.board', { roomId: 'lab' });
    expect(board.roomId).toBe('lab');
    expect(board.tasks.map((t) => [t.id, t.status])).toEqual([['task_1', 'in_review'], ['task_2', 'proposed'], ['task_3', 'cancelled']]);
    expect(board.tasks[0].assignee).toMatchObject({ name: 'Juniper', agentKey: holder.agentKey, ide: 'Claude Code' });
    expect(board.tasks[0].reviewer).toMatchObject({ name: 'Cedar', agentKey: reviewer.agentKey });
    expect(board.tasks[1]).toMatchObject({ proposedByAgent: true, createdBy: { name: 'Juniper', agentKey: holder.agentKey } });
  });

  it('gives the drawer: description, history, artifacts, source message and discussion', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const source = await h.call('messages.send', { roomId: 'lab', text: 'We should fix login' });
    await juniper.tool('add_task', { title: 'Fix login', description: 'It **breaks**', source_message_id: source.id });
    await h.call('tasks.accept', { roomId: 'lab', number: 1 });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    await juniper.tool('update_task', {
      task_id: 'task_1',
      workflow_artifacts: [{ provider: 'github', kind: 'branch', ref: 'fix-login' }],
    });
    const detail = await h.call('tasks.get', { roomId: 'lab', number: 1 });
    expect(detail).toMatchObject({ id: 'task_1', description: 'It **breaks**', sourceMessageNumber: source.number, status: 'assigned' });
    expect(detail.history.map((e) => [e.from, e.to])).toEqual([[null, 'proposed'], ['proposed', 'accepted'], ['accepted', 'assigned']]);
    expect(detail.history[1].actor).toBe((await h.app.auth.ownerIdentity()).ownerLabel);
    expect(detail.artifacts).toEqual([{ provider: 'github', kind: 'branch', id: null, number: null, title: null, url: null, ref: 'fix-login', state: null }]);
    const thread = await h.call('messages.thread', { roomId: 'lab', rootNumber: detail.discussionRootNumber! });
    expect(thread.root.text).toBe('Juniper proposed task_1: Fix login');
  });

  it("shows a linked pull request's state once GitHub answers", async () => {
    const h = await setUpApi();
    h.github.addRepo('acme/app', { visibility: 'public' });
    h.github.addPullRequest('acme/app', 7, { state: 'open', draft: true, headSha: 'abc1234', statuses: ['success'] });
    const url = `${h.github.webUrl}/acme/app/pull/7`;
    await taskInReview(h, url);
    const first = await h.call('tasks.board', { roomId: 'lab' });
    expect(first.tasks[0].pr).toEqual({ url, state: 'unknown', checks: null });
    await h.waitFor(() => eventsOf(h.events, 'task.changed').some((e) => e.task.pr?.state === 'draft'), 'the PR state to arrive');
    expect((await h.call('tasks.get', { roomId: 'lab', number: 1 })).pr).toEqual({ url, state: 'draft', checks: 'passing' });
  });

  it('refuses an unknown task or room', async () => {
    const h = await setUpApi();
    await h.room('lab');
    expect(await h.fail('tasks.get', { roomId: 'lab', number: 4 })).toEqual({ code: 'T3', message: 'Task not found.' });
    expect(await h.fail('tasks.get', { roomId: 'lab', number: 0 })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('tasks.board', { roomId: 'nowhere' })).toEqual({ code: 'R3', message: 'Room not found.' });
  });
});

describe('tasks.move, accept and cancel', () => {
  it('moves along the transition table, as the person', async () => {
    const h = await setUpApi();
    const { holder } = await taskInReview(h);
    const card = await h.call('tasks.move', { roomId: 'lab', number: 1, to: 'done' });
    expect(card).toMatchObject({ status: 'done', reviewer: null });
    expect((await h.call('tasks.move', { roomId: 'lab', number: 1, to: 'accepted' })).assignee).toBeNull();
    await holder.tool('add_task', { title: 'Proposal' });
    expect((await h.call('tasks.accept', { roomId: 'lab', number: 2 })).status).toBe('accepted');
    expect((await h.call('tasks.cancel', { roomId: 'lab', number: 2 })).status).toBe('cancelled');
  });

  it('refuses moves the table does not allow, assigning by drag, and unknown statuses, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    const before = h.snapshot();
    expect(await h.fail('tasks.move', { roomId: 'lab', number: 1, to: 'done' })).toEqual({
      code: 'T1',
      message: 'Invalid transition: accepted -> done. Allowed: assigned, cancelled',
    });
    expect(await h.fail('tasks.move', { roomId: 'lab', number: 1, to: 'assigned' })).toEqual({
      code: 'invalid_input',
      message: 'To assign a task, hand it off to an agent.',
    });
    expect(await h.fail('tasks.move', { roomId: 'lab', number: 1, to: 'shipped' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('tasks.accept', { roomId: 'lab', number: 2 })).toEqual({ code: 'T3', message: 'Task not found.' });
    expect(await h.fail('tasks.cancel', { roomId: 'nowhere', number: 1 })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('tasks.handoff and releases', () => {
  it('assigns work to an agent of the room and releases it again', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    const assigned = await h.call('tasks.handoff', { roomId: 'lab', number: 1, toAgentKey: juniper.agentKey });
    expect(assigned).toMatchObject({ status: 'assigned', assignee: { name: 'Juniper', agentKey: juniper.agentKey } });
    const released = await h.call('tasks.releaseWork', { roomId: 'lab', number: 1 });
    expect(released).toMatchObject({ status: 'accepted', assignee: null });
  });

  it('force-releases the review lease', async () => {
    const h = await setUpApi();
    await taskInReview(h);
    const card = await h.call('tasks.releaseReview', { roomId: 'lab', number: 1 });
    expect(card).toMatchObject({ status: 'in_review', reviewer: null });
  });

  it('refuses a handoff to an agent that is not in the room, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    const before = h.snapshot();
    expect(await h.fail('tasks.handoff', { roomId: 'lab', number: 1, toAgentKey: 'ada/nobody' })).toEqual({
      code: 'T15',
      message: 'No live worker with agent key ada/nobody in this room.',
    });
    expect(await h.fail('tasks.handoff', { roomId: 'lab', number: 1, toAgentKey: '' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('tasks.releaseWork', { roomId: 'lab', number: 9 })).toEqual({ code: 'T3', message: 'Task not found.' });
    expect(await h.fail('tasks.releaseReview', { roomId: 'lab', number: 9 })).toEqual({ code: 'T3', message: 'Task not found.' });
    expect(h.snapshot()).toBe(before);
  });
});
