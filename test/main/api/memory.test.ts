import { describe, expect, it } from 'vitest';
import { eventsOf, setUpApi } from './harness';

describe('memory.list and memory.add', () => {
  it("lists the room's facts newest first, agents' and the person's", async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('remember_room_fact', { client_id: 'fact-goal-001', category: 'goal', title: 'Ship v1', body: 'By May', source_message_id: 'msg_1' });
    const added = await h.call('memory.add', { roomId: 'lab', category: 'decision', title: ' Database ', body: 'SQLite', sourceUrl: 'https://example.com/adr/1' });
    const me = (await h.app.auth.ownerIdentity()).ownerLabel;
    expect(added).toMatchObject({
      id: 'fact_2', number: 2, roomId: 'lab', category: 'decision', title: 'Database', body: 'SQLite',
      sourceUrl: 'https://example.com/adr/1', sourceMessageNumber: null, createdBy: { name: me, agentKey: null }, retired: false,
    });
    const facts = await h.call('memory.list', { roomId: 'lab' });
    expect(facts.map((f) => f.id)).toEqual(['fact_2', 'fact_1']);
    expect(facts[1]).toMatchObject({ sourceMessageNumber: 1, createdBy: { name: 'Juniper', ide: 'Claude Code' } });
    expect(eventsOf(h.events, 'knowledge.changed')).toEqual([
      { type: 'knowledge.changed', place: 'local', roomId: 'lab' },
      { type: 'knowledge.changed', place: 'local', roomId: 'lab' },
    ]);
  });

  it('refuses a bad category, blank title or body, an unknown or archived room, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.room('old');
    await h.call('rooms.archive', { roomId: 'old', archived: true });
    const before = h.snapshot();
    const fact = { roomId: 'lab', category: 'decision', title: 'T', body: 'B' };
    expect(await h.fail('memory.add', { ...fact, category: 'rumour' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('memory.add', { ...fact, title: ' ' })).toEqual({ code: 'invalid_input', message: 'title: Title is required.' });
    expect(await h.fail('memory.add', { ...fact, body: '' })).toEqual({ code: 'invalid_input', message: 'body: Text is required.' });
    expect(await h.fail('memory.add', { ...fact, roomId: 'nowhere' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('memory.add', { ...fact, roomId: 'old' })).toEqual({ code: 'R4', message: 'This room is archived.' });
    expect(await h.fail('memory.list', { roomId: 'nowhere' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('memory.edit and memory.retire', () => {
  it('edits a fact, and retires it so only people still see it', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await h.call('memory.add', { roomId: 'lab', category: 'decision', title: 'Database', body: 'SQLite' });
    const edited = await h.call('memory.edit', { roomId: 'lab', number: 1, body: 'SQLite, WAL mode' });
    expect(edited).toMatchObject({ title: 'Database', body: 'SQLite, WAL mode', category: 'decision' });
    const decisions = async () => (await juniper.tool<{ memory: { decisions: Array<{ body: string }> } }>('get_room_memory')).memory.decisions;
    expect((await decisions()).map((d) => d.body)).toEqual(['SQLite, WAL mode']);
    expect(await h.call('memory.retire', { roomId: 'lab', number: 1 })).toMatchObject({ retired: true });
    expect(await h.call('memory.list', { roomId: 'lab' })).toEqual([]);
    expect((await h.call('memory.list', { roomId: 'lab', includeRetired: true })).map((f) => f.retired)).toEqual([true]);
    expect(await decisions()).toEqual([]);
  });

  it('refuses an unknown fact and bad fields, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.call('memory.add', { roomId: 'lab', category: 'decision', title: 'Database', body: 'SQLite' });
    const before = h.snapshot();
    expect(await h.fail('memory.edit', { roomId: 'lab', number: 2, title: 'X' })).toEqual({ code: 'not_found', message: 'Fact not found.' });
    expect(await h.fail('memory.edit', { roomId: 'lab', number: 1, title: 'x'.repeat(161) })).toEqual({
      code: 'invalid_input',
      message: 'title: Title must be at most 160 characters.',
    });
    expect(await h.fail('memory.retire', { roomId: 'lab', number: 2 })).toEqual({ code: 'not_found', message: 'Fact not found.' });
    expect(h.snapshot()).toBe(before);
  });
});
