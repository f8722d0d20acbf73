import { describe, expect, it } from 'vitest';
import { eventsOf, setUpApi, type ApiHarness, type TestAgent } from './harness';

const question = { client_id: 'question-0001', title: 'Which database?', body: 'Postgres or SQLite?', category: 'question', recommendation: 'SQLite', unblocks: 'task_1' };

/** The person's mention handle (the OS user name when not signed in). */
const meOf = async (h: ApiHarness) => (await h.app.auth.ownerIdentity()).ownerLabel.replace(/[^A-Za-z0-9_.:/-]/g, '');

async function waitingTask(h: ApiHarness, agent: TestAgent, title: string, to: 'in_review' | 'blocked'): Promise<number> {
  const card = await h.call('tasks.create', { roomId: agent.roomId, title });
  await agent.tool('claim_task', { task_id: card.id });
  await agent.tool('update_task', { task_id: card.id, status: 'in_progress' });
  await agent.tool('update_task', { task_id: card.id, status: to });
  return card.number;
}

describe('needsYou.list', () => {
  it('shows requests, tasks in review, blocked tasks and mentions across rooms, newest first', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const cedar = await h.agent('ops', 'Cedar');
    await juniper.tool('request_human_input', question);
    const review = await waitingTask(h, juniper, 'Fix login', 'in_review');
    const blocked = await waitingTask(h, cedar, 'Deploy', 'blocked');
    const mention = (await cedar.tool<{ id: string }>('send_message', { text: `@${await meOf(h)} can you check the deploy?` })).id;

    const { items } = await h.call('needsYou.list', {});
    // Newest first (items made within one millisecond may come in either order).
    const times = items.map((i) => i.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const find = (reason: string) => items.find((i) => i.reason === reason)!;
    expect(items.map((i) => [i.ref.kind, i.ref.roomId, i.reason]).sort()).toEqual([
      ['mention', 'ops', 'mention'],
      ['request', 'lab', 'question'],
      ['task', 'lab', 'task_in_review'],
      ['task', 'ops', 'task_blocked'],
    ]);
    const [m, b, r, q] = [find('mention'), find('task_blocked'), find('task_in_review'), find('question')];
    expect(m).toMatchObject({ ref: { number: Number(mention.slice(4)) }, from: 'Cedar', roomName: 'ops', title: 'Cedar mentioned you', threadRootNumber: Number(mention.slice(4)) });
    expect(b).toMatchObject({ ref: { number: blocked }, from: 'Cedar', title: 'task_1: Deploy' });
    expect(r).toMatchObject({ ref: { number: review }, from: 'Juniper', title: 'task_1: Fix login' });
    expect(r.threadRootNumber).not.toBeNull();
    expect(q).toMatchObject({
      ref: { kind: 'request', roomId: 'lab', number: 1 }, title: 'Which database?', body: 'Postgres or SQLite?', from: 'Juniper',
      recommendation: 'SQLite', unblocks: 'task_1',
    });
    // The answer goes under the request's creation event.
    const event = await h.call('messages.thread', { roomId: 'lab', rootNumber: q.threadRootNumber! });
    expect(event.root.text).toBe('Juniper asked for input (req_1): Which database?');
  });
});

describe('needsYou.answer', () => {
  it("answers a request in its thread, mentioning the agent, and the agent's wait receives it", async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('request_human_input', question);
    const cursor = (await h.call('messages.timeline', { roomId: 'lab' })).messages.at(-1)!.id;
    const reply = await h.call('needsYou.answer', { item: { kind: 'request', roomId: 'lab', number: 1 }, text: ' SQLite, please. ' });
    expect(reply).toMatchObject({ source: 'human', text: '@Juniper SQLite, please.', threadRootNumber: 2 });
    expect((await h.call('needsYou.list', {})).items).toEqual([]);
    const woken = await juniper.tool<{ messages: Array<{ id: string }> }>('wait_for_messages', { after_message_id: cursor, timeout: 1_000 });
    expect(woken.messages.map((m) => m.id)).toEqual([reply.id]);
    expect(eventsOf(h.events, 'needsYou.changed').length).toBeGreaterThan(0);
  });

  it('answers a mention as a reply to it, which takes it off the queue', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const sent = await juniper.tool<{ id: string }>('send_message', { text: `@${await meOf(h)} ping` });
    const number = Number(sent.id.slice(4));
    const reply = await h.call('needsYou.answer', { item: { kind: 'mention', roomId: 'lab', number }, text: 'pong' });
    expect(reply).toMatchObject({ text: 'pong', threadRootNumber: number, source: 'human' });
    expect((await h.call('needsYou.list', {})).items).toEqual([]);
  });

  it("answers a task in review in its discussion, mentioning the holder, and the item is done", async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const number = await waitingTask(h, juniper, 'Fix login', 'in_review');
    const detail = await h.call('tasks.get', { roomId: 'lab', number });
    const reply = await h.call('needsYou.answer', { item: { kind: 'task', roomId: 'lab', number }, text: 'Looks good' });
    expect(reply).toMatchObject({ text: '@Juniper Looks good', threadRootNumber: detail.discussionRootNumber });
    expect((await h.call('needsYou.list', {})).items).toEqual([]);
  });

  it('mentions the holder by its current name after a rename', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const number = await waitingTask(h, juniper, 'Deploy', 'blocked');
    await h.call('workers.rename', { sessionId: juniper.sessionId, name: 'Code Bot' });
    const reply = await h.call('needsYou.answer', { item: { kind: 'task', roomId: 'lab', number }, text: 'Unblocked: use staging' });
    expect(reply.text).toBe('@CodeBot Unblocked: use staging');
  });

  it('refuses blank text, an answered or unknown request and an unknown kind, changing nothing', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('request_human_input', question);
    await h.call('needsYou.answer', { item: { kind: 'request', roomId: 'lab', number: 1 }, text: 'SQLite' });
    const before = h.snapshot();
    expect(await h.fail('needsYou.answer', { item: { kind: 'request', roomId: 'lab', number: 1 }, text: ' ' })).toEqual({
      code: 'invalid_input',
      message: 'text: Message text is required.',
    });
    // The first answer wins: a second one is refused, naming who answered (issue 12: requests of a team's rooms reach everyone).
    expect(await h.fail('needsYou.answer', { item: { kind: 'request', roomId: 'lab', number: 1 }, text: 'again' })).toEqual({
      code: 'already_answered',
      message: expect.stringMatching(/^req_1 was already answered by \S.*; your answer was not posted\.$/),
    });
    expect(await h.fail('needsYou.answer', { item: { kind: 'request', roomId: 'lab', number: 7 }, text: 'x' })).toEqual({ code: 'not_found', message: 'Request not found.' });
    expect(await h.fail('needsYou.answer', { item: { kind: 'task', roomId: 'lab', number: 7 }, text: 'x' })).toEqual({ code: 'not_found', message: 'Task not found.' });
    expect(await h.fail('needsYou.answer', { item: { kind: 'mention', roomId: 'lab', number: 99 }, text: 'x' })).toEqual({
      code: 'M2',
      message: 'reply_to must reference an existing local message in this room.',
    });
    expect(await h.fail('needsYou.answer', { item: { kind: 'request', roomId: 'nowhere', number: 1 }, text: 'x' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('needsYou.answer', { item: { kind: 'fact', roomId: 'lab', number: 1 }, text: 'x' })).toMatchObject({ code: 'invalid_input' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('needsYou.dismiss', () => {
  it('takes requests, mentions and waiting tasks off the queue', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('request_human_input', question);
    const task = await waitingTask(h, juniper, 'Deploy', 'blocked');
    const mention = Number((await juniper.tool<{ id: string }>('send_message', { text: `@${await meOf(h)} hi` })).id.slice(4));
    expect((await h.call('needsYou.list', {})).items).toHaveLength(3);
    for (const item of [
      { kind: 'request' as const, roomId: 'lab', number: 1 },
      { kind: 'task' as const, roomId: 'lab', number: task },
      { kind: 'mention' as const, roomId: 'lab', number: mention },
    ]) {
      expect(await h.call('needsYou.dismiss', { item })).toEqual({ removed: true });
    }
    expect((await h.call('needsYou.list', {})).items).toEqual([]);
  });

  it('reports nothing removed for a task that no longer waits for the person', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    const before = h.snapshot();
    expect(await h.call('needsYou.dismiss', { item: { kind: 'task', roomId: 'lab', number: 1 } })).toEqual({ removed: false });
    expect(h.snapshot()).toBe(before);
  });

  it('refuses unknown items, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const before = h.snapshot();
    expect(await h.fail('needsYou.dismiss', { item: { kind: 'request', roomId: 'lab', number: 1 } })).toEqual({ code: 'not_found', message: 'Request not found.' });
    expect(await h.fail('needsYou.dismiss', { item: { kind: 'mention', roomId: 'lab', number: 1 } })).toEqual({ code: 'not_found', message: 'Message not found.' });
    expect(await h.fail('needsYou.dismiss', { item: { kind: 'task', roomId: 'lab', number: 1 } })).toEqual({ code: 'not_found', message: 'Task not found.' });
    expect(await h.fail('needsYou.dismiss', { item: { kind: 'task', roomId: 'nowhere', number: 1 } })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('needsYou.dismiss', { item: { kind: 'task', roomId: 'lab', number: 1, extra: 1 } })).toMatchObject({ code: 'invalid_input' });
    expect(h.snapshot()).toBe(before);
  });

  it('refuses an approval that is not on this computer with not_found, as approvals.decide does, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const before = h.snapshot();
    const elsewhere = "on this computer. An agent's tool use is allowed or denied only on the computer that runs it (or that computer's paired phone)";
    // An unknown number, by either way in.
    expect(await h.fail('approvals.decide', { number: 7, decision: 'allow_once' })).toEqual({ code: 'not_found', message: expect.stringContaining(`Approval 7 is not ${elsewhere}`) });
    expect(await h.fail('needsYou.dismiss', { item: { kind: 'approval', roomId: 'lab', number: 7 } })).toEqual({ code: 'not_found', message: expect.stringContaining(`Approval 7 is not ${elsewhere}`) });
    // A team room's item: another computer's agent asked it.
    expect(await h.fail('needsYou.dismiss', { item: { kind: 'approval', roomId: 'lab', place: 'acme', number: 7 } })).toEqual({
      code: 'not_found',
      message: expect.stringContaining(`This approval is not ${elsewhere}`),
    });
    expect(h.snapshot()).toBe(before);
  });
});
