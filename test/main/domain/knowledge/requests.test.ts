import { describe, expect, it } from 'vitest';
import {
  answerRequest,
  dismissRequest,
  getHumanRequests,
  requestHumanInput,
  type RequestInput,
} from '../../../../src/main/domain/knowledge/requests';
import type { PersonActor } from '../../../../src/main/domain/actor';
import { DomainError } from '../../../../src/main/domain/errors';
import type { Tx } from '../../../../src/main/store/port';
import { ada, addRoom, cedar, juniper, makeStore, postAgentMessage, snapshot } from './fixtures';

const TABLES = ['human_requests', 'messages', 'rooms'];

const input = (over: Partial<RequestInput> = {}): RequestInput => ({
  clientId: 'ask-db-0001',
  title: 'Which database?',
  body: 'SQLite or Postgres for the local store?',
  category: 'decision',
  ...over,
});

async function setup() {
  const ctx = makeStore();
  await addRoom(ctx.store, 'R');
  return ctx;
}
type Ctx = Awaited<ReturnType<typeof setup>>;

async function expectRefused(ctx: Ctx, write: (tx: Tx) => Promise<unknown>, phrase: string) {
  const before = snapshot(ctx.store, ...TABLES);
  const error = await ctx.store.write(write).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).message).toBe(phrase);
  expect(snapshot(ctx.store, ...TABLES)).toEqual(before);
}

const messageRow = (ctx: Ctx, number: number) =>
  ctx.db.prepare('SELECT * FROM messages WHERE room_id = ? AND number = ?').get('R', number) as Record<string, unknown>;
const lastMessage = (ctx: Ctx) =>
  ctx.db.prepare('SELECT * FROM messages WHERE room_id = ? ORDER BY number DESC LIMIT 1').get('R') as Record<string, unknown>;

describe('asking people for input', () => {
  it('creates req_1 as open, posts the system event and lands in "Needs you"', async () => {
    const ctx = await setup();
    const { request, created } = await ctx.store.write((tx) =>
      requestHumanInput(tx, 'R', juniper, input({ recommendation: 'SQLite', unblocks: 'task_3' })),
    );
    expect(created).toBe(true);
    expect(request).toEqual({
      id: 'req_1',
      category: 'decision',
      title: 'Which database?',
      body: 'SQLite or Postgres for the local store?',
      recommendation: 'SQLite',
      unblocks: 'task_3',
      source_message_id: null,
      source_url: null,
      status: 'open',
      requested_by: juniper.label,
      created_at: expect.any(String),
      answer: null,
    });
    const event = lastMessage(ctx);
    expect(event).toMatchObject({
      source: 'system',
      kind: 'event',
      sender: 'LetAgents',
      text: 'Juniper asked for input (req_1): Which database?',
      publisher_agent_key: juniper.agentKey,
    });
    const row = ctx.db.prepare('SELECT event_message_number, requested_by_name FROM human_requests').get();
    expect(row).toEqual({ event_message_number: event.number, requested_by_name: 'Juniper' });
    expect(ctx.events).toContainEqual({ type: 'needsYou.changed', place: 'local', roomId: 'R' });
  });

  it('a repeat with the same content returns the request with created:false and posts nothing', async () => {
    const ctx = await setup();
    const first = await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    const before = snapshot(ctx.store, ...TABLES);
    const events = ctx.events.length;
    const again = await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    expect(again).toEqual({ request: first.request, created: false });
    expect(snapshot(ctx.store, ...TABLES)).toEqual(before);
    expect(ctx.events.length).toBe(events);
    const next = await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input({ clientId: 'ask-db-0002' })));
    expect(next.request.id).toBe('req_2');
  });

  it.each([
    ['title', { title: 'Which cache?' }],
    ['recommendation', { recommendation: 'Postgres' }],
    ['unblocks', { unblocks: 'task_9' }],
    ['category', { category: 'question' }],
  ])('a repeat with a different %s fails with K1 and changes nothing', async (_field, change) => {
    const ctx = await setup();
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    await expectRefused(ctx, (tx) => requestHumanInput(tx, 'R', juniper, input(change)), 'client_id was already used for a different entry.');
  });

  const bounds: Array<[string, Partial<RequestInput>, Partial<RequestInput>, string]> = [
    ['client_id 8', { clientId: 'c'.repeat(8) }, { clientId: 'c'.repeat(7) }, 'client_id must be 8–80 characters.'],
    ['client_id 80', { clientId: 'c'.repeat(80) }, { clientId: 'c'.repeat(81) }, 'client_id must be 8–80 characters.'],
    ['title 160', { title: 't'.repeat(160) }, { title: 't'.repeat(161) }, 'title must be 1–160 characters.'],
    ['body 8000', { body: 'b'.repeat(8000) }, { body: 'b'.repeat(8001) }, 'body must be 1–8000 characters.'],
    ['body not blank', { body: 'b' }, { body: ' \n ' }, 'body must be 1–8000 characters.'],
    ['recommendation 2000', { recommendation: 'r'.repeat(2000) }, { recommendation: 'r'.repeat(2001) }, 'recommendation must be at most 2000 characters.'],
    ['unblocks 1000', { unblocks: 'u'.repeat(1000) }, { unblocks: 'u'.repeat(1001) }, 'unblocks must be at most 1000 characters.'],
    ['source_url 2048', { sourceUrl: 'u'.repeat(2048) }, { sourceUrl: 'u'.repeat(2049) }, 'source_url must be at most 2048 characters.'],
    ['category', { category: 'approval' }, { category: 'goal' }, 'category must be one of question, decision, approval, review.'],
  ];
  it.each(bounds)('%s: just inside is stored, just outside is refused with nothing written', async (_n, inside, outside, phrase) => {
    const ctx = await setup();
    await expectRefused(ctx, (tx) => requestHumanInput(tx, 'R', juniper, input(outside)), phrase);
    expect((await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input(inside)))).created).toBe(true);
  });

  it('source_message_id outside the room is M2', async () => {
    const ctx = await setup();
    await expectRefused(
      ctx,
      (tx) => requestHumanInput(tx, 'R', juniper, input({ sourceMessageId: 'msg_5' })),
      'reply_to must reference an existing local message in this room.',
    );
  });

  it('lists the room\'s requests newest first', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', cedar, input({ clientId: 'ask-review-1', category: 'review', title: 'Look at PR 4' })));
    const list = await getHumanRequests(ctx.q, 'R');
    expect(list.map((r) => [r.id, r.requested_by])).toEqual([['req_2', cedar.label], ['req_1', juniper.label]]);
  });
});

describe('answering and dismissing', () => {
  it('the answer is stored and posted as the person\'s thread reply under the creation event, mentioning the requester', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    const eventNumber = lastMessage(ctx).number as number;
    const answered = await ctx.store.write((tx) => answerRequest(tx, ada, 'R', 1, '  SQLite, in WAL mode. '));
    expect(answered.status).toBe('answered');
    expect(answered.answer).toEqual({ text: 'SQLite, in WAL mode.', answered_by: 'Ada Lovelace', answered_at: expect.any(String) });
    expect((await getHumanRequests(ctx.q, 'R'))[0]).toEqual(answered);
    const reply = lastMessage(ctx);
    expect(reply).toMatchObject({ source: 'human', kind: 'message', thread_root_number: eventNumber, text: '@Juniper SQLite, in WAL mode.' });
    expect(String(reply.text).startsWith('@Juniper ')).toBe(true);
  });

  it('the answer goes under the request\'s source message when it has one', async () => {
    const ctx = await setup();
    const source = await postAgentMessage(ctx.store, 'R', 'Should we pick a database now?');
    await postAgentMessage(ctx.store, 'R', 'unrelated');
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', cedar, input({ sourceMessageId: `msg_${source}` })));
    await ctx.store.write((tx) => answerRequest(tx, ada, 'R', 1, 'Yes: SQLite.'));
    const reply = lastMessage(ctx);
    expect(reply).toMatchObject({ source: 'human', thread_root_number: source, text: '@Cedar Yes: SQLite.' });
    expect(messageRow(ctx, source).thread_root_number).toBeNull();
  });

  it('a requester name with spaces is mentioned as one word, so the mention still reaches it', async () => {
    const ctx = await setup();
    const codeBot = { ...juniper, displayName: 'Code Bot', label: "Code Bot | Ada's agent | Codex" };
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', codeBot, input()));
    expect(lastMessage(ctx).text).toBe('Code Bot asked for input (req_1): Which database?');
    await ctx.store.write((tx) => answerRequest(tx, ada, 'R', 1, 'SQLite.'));
    expect(lastMessage(ctx).text).toBe('@CodeBot SQLite.');
  });

  it('an answered request cannot be answered or dismissed again', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    await ctx.store.write((tx) => answerRequest(tx, ada, 'R', 1, 'SQLite.'));
    // The first answer wins; the next one hears who gave it.
    await expectRefused(ctx, (tx) => answerRequest(tx, ada, 'R', 1, 'Postgres.'), 'req_1 was already answered by Ada Lovelace; your answer was not posted.');
    await expectRefused(ctx, (tx) => dismissRequest(tx, ada, 'R', 1), 'req_1 is already answered; only open requests can be dismissed.');
  });

  it('a dismissed request leaves the open list and cannot be answered', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    const messagesBefore = snapshot(ctx.store, 'messages');
    const dismissed = await ctx.store.write((tx) => dismissRequest(tx, ada, 'R', 1));
    expect(dismissed).toMatchObject({ id: 'req_1', status: 'dismissed', answer: null });
    expect(snapshot(ctx.store, 'messages')).toEqual(messagesBefore);
    await expectRefused(ctx, (tx) => answerRequest(tx, ada, 'R', 1, 'Late answer'), 'req_1 is already dismissed; only open requests can be answered.');
  });

  it('refuses a blank answer, an unknown request and an agent changing the status', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, input()));
    await expectRefused(ctx, (tx) => answerRequest(tx, ada, 'R', 1, '   '), 'Answer text is required.');
    await expectRefused(ctx, (tx) => answerRequest(tx, ada, 'R', 2, 'x'), 'Request not found.');
    const agent = cedar as unknown as PersonActor;
    await expectRefused(ctx, (tx) => answerRequest(tx, agent, 'R', 1, 'x'), 'Only people can answer or dismiss requests.');
    await expectRefused(ctx, (tx) => dismissRequest(tx, agent, 'R', 1), 'Only people can answer or dismiss requests.');
  });
});
