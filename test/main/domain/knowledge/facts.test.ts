import { describe, expect, it } from 'vitest';
import {
  addFactAsPerson,
  editFact,
  getRoomMemory,
  listRoomFacts,
  rememberFact,
  restoreFact,
  retireFact,
  type RememberFactInput,
} from '../../../../src/main/domain/knowledge/facts';
import type { PersonActor } from '../../../../src/main/domain/actor';
import { DomainError } from '../../../../src/main/domain/errors';
import { ada, addRoom, countRows, juniper, makeStore, postAgentMessage, snapshot } from './fixtures';

const input = (over: Partial<RememberFactInput> = {}): RememberFactInput => ({
  clientId: 'fact-client-1',
  title: 'Use SQLite',
  body: 'One SQLite file, written only by the app core.',
  category: 'decision',
  ...over,
});

async function setup() {
  const ctx = makeStore();
  await addRoom(ctx.store, 'R');
  return ctx;
}

/** Runs a failing write and checks its exact phrase and that no table changed. */
async function expectRefused(ctx: Awaited<ReturnType<typeof setup>>, write: Parameters<typeof ctx.store.write>[0], phrase: string) {
  const before = snapshot(ctx.store, 'room_facts', 'rooms', 'messages');
  const error = await ctx.store.write(write).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).message).toBe(phrase);
  expect(snapshot(ctx.store, 'room_facts', 'rooms', 'messages')).toEqual(before);
}

describe('remembering facts', () => {
  it('an agent remembers a fact as fact_1 and reads it back in its category', async () => {
    const ctx = await setup();
    const source = await postAgentMessage(ctx.store, 'R', 'we decided on SQLite');
    const { fact, created } = await ctx.store.write((tx) =>
      rememberFact(tx, 'R', juniper, input({ sourceMessageId: `msg_${source}`, sourceUrl: 'https://example.com/adr/1' })),
    );
    expect(created).toBe(true);
    expect(fact).toEqual({
      id: 'fact_1',
      category: 'decision',
      title: 'Use SQLite',
      body: 'One SQLite file, written only by the app core.',
      source_message_id: `msg_${source}`,
      source_url: 'https://example.com/adr/1',
      created_by: juniper.label,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const { category: _category, ...entry } = fact;
    expect(await getRoomMemory(ctx.q, 'R')).toEqual({ goals: [], decisions: [entry], constraints: [], terms: [], references: [] });
    expect(ctx.events).toContainEqual({ type: 'knowledge.changed', place: 'local', roomId: 'R' });
  });

  it('groups facts by category in the order they were remembered', async () => {
    const ctx = await setup();
    await ctx.store.write(async (tx) => {
      await rememberFact(tx, 'R', juniper, input({ clientId: 'goal-0001', category: 'goal', title: 'Ship v1' }));
      await rememberFact(tx, 'R', juniper, input({ clientId: 'term-0001', category: 'term', title: 'Room' }));
      await rememberFact(tx, 'R', juniper, input({ clientId: 'goal-0002', category: 'goal', title: 'Stay local' }));
      await rememberFact(tx, 'R', juniper, input({ clientId: 'cons-0001', category: 'constraint', title: 'No server' }));
      await rememberFact(tx, 'R', juniper, input({ clientId: 'refs-0001', category: 'reference', title: 'Spec' }));
    });
    const memory = await getRoomMemory(ctx.q, 'R');
    expect(memory.goals.map((f) => [f.id, f.title])).toEqual([['fact_1', 'Ship v1'], ['fact_3', 'Stay local']]);
    expect(memory.terms.map((f) => f.id)).toEqual(['fact_2']);
    expect(memory.constraints.map((f) => f.id)).toEqual(['fact_4']);
    expect(memory.references.map((f) => f.id)).toEqual(['fact_5']);
    expect(memory.decisions).toEqual([]);
  });

  it('numbers facts per room', async () => {
    const ctx = await setup();
    await addRoom(ctx.store, 'S');
    const a = await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    const b = await ctx.store.write((tx) => rememberFact(tx, 'S', juniper, input()));
    expect([a.fact.id, b.fact.id]).toEqual(['fact_1', 'fact_1']);
  });
});

describe('client_id idempotency', () => {
  it('a repeat with the same content returns the same fact with created:false and writes nothing', async () => {
    const ctx = await setup();
    const first = await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    const before = snapshot(ctx.store, 'room_facts', 'rooms');
    const eventsBefore = ctx.events.length;
    // Surrounding spaces on the title are not a change of content.
    const again = await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input({ title: '  Use SQLite ' })));
    expect(again).toEqual({ fact: first.fact, created: false });
    expect(snapshot(ctx.store, 'room_facts', 'rooms')).toEqual(before);
    expect(ctx.events.length).toBe(eventsBefore);
    const next = await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input({ clientId: 'fact-client-2' })));
    expect(next.fact.id).toBe('fact_2');
  });

  it.each([
    ['title', { title: 'Use Postgres' }],
    ['body', { body: 'Something else.' }],
    ['category', { category: 'constraint' }],
    ['source_url', { sourceUrl: 'https://example.com' }],
  ])('a repeat with a different %s fails with K1 and changes nothing', async (_field, change) => {
    const ctx = await setup();
    await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    const before = snapshot(ctx.store, 'room_facts', 'rooms');
    const error = await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input(change))).catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.message).toBe('client_id was already used for a different entry.');
    expect(error.code).toBe('K1');
    expect(error.kind).toBe('soft');
    expect(snapshot(ctx.store, 'room_facts', 'rooms')).toEqual(before);
  });
});

describe('fact limits', () => {
  const cases: Array<[string, Partial<RememberFactInput>, Partial<RememberFactInput>, string]> = [
    ['client_id at least 8', { clientId: 'a'.repeat(8) }, { clientId: 'a'.repeat(7) }, 'client_id must be 8–80 characters.'],
    ['client_id at most 80', { clientId: 'a'.repeat(80) }, { clientId: 'a'.repeat(81) }, 'client_id must be 8–80 characters.'],
    ['title at least 1', { title: 'x' }, { title: '   ' }, 'title must be 1–160 characters.'],
    ['title at most 160', { title: 't'.repeat(160) }, { title: 't'.repeat(161) }, 'title must be 1–160 characters.'],
    ['title counted in characters', { title: '🦊'.repeat(160) }, { title: '🦊'.repeat(161) }, 'title must be 1–160 characters.'],
    ['body at least 1', { body: 'b' }, { body: '' }, 'body must be 1–8000 characters.'],
    ['body at most 8000', { body: 'b'.repeat(8000) }, { body: 'b'.repeat(8001) }, 'body must be 1–8000 characters.'],
    ['source_url at most 2048', { sourceUrl: 'u'.repeat(2048) }, { sourceUrl: 'u'.repeat(2049) }, 'source_url must be at most 2048 characters.'],
    ['category from the list', { category: 'reference' }, { category: 'question' }, 'category must be one of goal, decision, constraint, term, reference.'],
  ];

  it.each(cases)('%s: just inside is stored, just outside is refused with nothing written', async (_name, inside, outside, phrase) => {
    const ctx = await setup();
    await expectRefused(ctx, (tx) => rememberFact(tx, 'R', juniper, input(outside)), phrase);
    const { created } = await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input(inside)));
    expect(created).toBe(true);
  });

  it('source_message_id must name a message of this room (M2)', async () => {
    const ctx = await setup();
    await addRoom(ctx.store, 'S');
    const elsewhere = await postAgentMessage(ctx.store, 'S', 'in another room');
    const m2 = 'reply_to must reference an existing local message in this room.';
    for (const id of [`msg_${elsewhere}`, 'msg_99', 'msg_01', 'msg_0', 'task_1']) {
      await expectRefused(ctx, (tx) => rememberFact(tx, 'R', juniper, input({ sourceMessageId: id })), m2);
    }
  });

  it('an unknown room is R3 and an archived room is R4', async () => {
    const ctx = await setup();
    await addRoom(ctx.store, 'OLD', { archived: true });
    await expectRefused(ctx, (tx) => rememberFact(tx, 'NOPE', juniper, input()), 'Room not found.');
    await expectRefused(ctx, (tx) => rememberFact(tx, 'OLD', juniper, input()), 'This room is archived.');
  });
});

describe('people manage room memory', () => {
  it('a retired fact is hidden from agents, still listed for people, and can be restored', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    const retired = await ctx.store.write((tx) => retireFact(tx, ada, 'R', 1));
    expect(retired.retired_at).not.toBeNull();
    expect((await getRoomMemory(ctx.q, 'R')).decisions).toEqual([]);
    expect((await listRoomFacts(ctx.q, 'R')).map((f) => [f.id, f.retired_at !== null])).toEqual([['fact_1', true]]);
    await ctx.store.write((tx) => restoreFact(tx, ada, 'R', 1));
    expect((await getRoomMemory(ctx.q, 'R')).decisions.map((f) => f.id)).toEqual(['fact_1']);
  });

  it('retiring an already retired fact changes nothing', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    await ctx.store.write((tx) => retireFact(tx, ada, 'R', 1));
    const before = snapshot(ctx.store, 'room_facts');
    const events = ctx.events.length;
    await ctx.store.write((tx) => retireFact(tx, ada, 'R', 1));
    expect(snapshot(ctx.store, 'room_facts')).toEqual(before);
    expect(ctx.events.length).toBe(events);
  });

  it('a person adds a fact under their own name without a client_id', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    const fact = await ctx.store.write((tx) =>
      addFactAsPerson(tx, ada, 'R', { title: 'No cloud', body: 'Everything stays on this machine.', category: 'constraint' }),
    );
    expect(fact).toMatchObject({ id: 'fact_2', created_by: 'Ada Lovelace', category: 'constraint', retired_at: null });
    expect((await getRoomMemory(ctx.q, 'R')).constraints.map((f) => f.title)).toEqual(['No cloud']);
  });

  it('a person edits a fact, and the same limits apply', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    const edited = await ctx.store.write((tx) => editFact(tx, ada, 'R', 1, { title: 'Use SQLite (WAL)', category: 'constraint' }));
    expect(edited).toMatchObject({ id: 'fact_1', title: 'Use SQLite (WAL)', category: 'constraint', body: input().body });
    expect((await getRoomMemory(ctx.q, 'R')).constraints.map((f) => f.title)).toEqual(['Use SQLite (WAL)']);
    await expectRefused(ctx, (tx) => editFact(tx, ada, 'R', 1, { title: 't'.repeat(161) }), 'title must be 1–160 characters.');
    await expectRefused(ctx, (tx) => editFact(tx, ada, 'R', 7, { title: 'x' }), 'Fact not found.');
  });

  it('an agent cannot use the person actions', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => rememberFact(tx, 'R', juniper, input()));
    const asPerson = juniper as unknown as PersonActor;
    await expectRefused(ctx, (tx) => retireFact(tx, asPerson, 'R', 1), 'Only people can change facts this way.');
    await expectRefused(ctx, (tx) => editFact(tx, asPerson, 'R', 1, { title: 'x' }), 'Only people can change facts this way.');
    expect(countRows(ctx.store, 'room_facts')).toBe(1);
  });
});
