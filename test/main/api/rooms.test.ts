import { placeKey } from '../../../src/main/domain/placeKeys';
import { describe, expect, it } from 'vitest';
import { createInviteRoom, ensureRoom } from '../../../src/main/domain/rooms/rooms';
import { sendMessage } from '../../../src/main/domain/messages/send';
import { eventsOf, setUpApi } from './harness';

describe('rooms.list', () => {
  it('lists rooms with kind, repo name, invite code, unread count and online agents', async () => {
    const h = await setUpApi();
    expect(await h.call('rooms.list', {})).toEqual([]);
    await h.app.core.store.write((tx) => ensureRoom(tx, { roomId: 'github.com/acme/app', kind: 'repo' }));
    const invite = await h.app.core.store.write((tx) => createInviteRoom(tx));
    const juniper = await h.agent('github.com/acme/app', 'Juniper');
    await juniper.tool('send_message', { text: 'hello people' });

    const rooms = await h.call('rooms.list', {});
    const repo = rooms.find((r) => r.id === 'github.com/acme/app')!;
    expect(repo).toMatchObject({ kind: 'repo', name: 'github.com/acme/app', repo: 'acme/app', code: null, pinned: false, archived: false, onlineAgents: 1 });
    // The join event and the agent's message are unread; both are people-visible.
    expect(repo.unread).toBe(2);
    expect(repo.lastNumber).toBe(2);
    expect(rooms.find((r) => r.id === invite.room_id)).toMatchObject({ kind: 'invite', code: invite.room_id, repo: null, unread: 0, lastNumber: 0, onlineAgents: 0 });
  });

  it('counts an agent as offline once a person disconnects it', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await h.call('workers.disconnect', { sessionId: juniper.sessionId });
    expect((await h.call('rooms.list', {}))[0].onlineAgents).toBe(0);
  });

  it('hides archived rooms unless asked, and puts pinned rooms first', async () => {
    const h = await setUpApi();
    for (const id of ['alpha', 'beta', 'gamma']) await h.room(id);
    await h.call('rooms.archive', { roomId: 'alpha', archived: true });
    await h.call('rooms.pin', { roomId: 'gamma', pinned: true });
    expect((await h.call('rooms.list', {})).map((r) => r.id)).toEqual(['gamma', 'beta']);
    const all = await h.call('rooms.list', { includeArchived: true });
    expect(all.map((r) => [r.id, r.archived])).toEqual([['gamma', false], ['beta', false], ['alpha', true]]);
  });

  it('refuses unknown options and changes nothing', async () => {
    const h = await setUpApi();
    const before = h.snapshot();
    expect(await h.fail('rooms.list', { includeArchived: 'yes' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('rooms.list', { everything: true })).toMatchObject({ code: 'invalid_input' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('rooms.rename', () => {
  it('changes the display name, keeps the id, and tells the UI', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const room = await h.call('rooms.rename', { roomId: 'lab', name: '  The   Lab ' });
    expect(room).toMatchObject({ id: 'lab', name: 'The Lab' });
    expect(eventsOf(h.events, 'room.changed')).toContainEqual({ type: 'room.changed', place: 'local', roomId: 'lab', change: 'renamed' });
  });

  it('refuses a blank name, an unknown room and an archived room, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.room('old');
    await h.call('rooms.archive', { roomId: 'old', archived: true });
    const before = h.snapshot();
    expect(await h.fail('rooms.rename', { roomId: 'lab', name: '   ' })).toEqual({ code: 'invalid_input', message: 'name: Room name is required.' });
    expect(await h.fail('rooms.rename', { roomId: 'lab', name: 'x'.repeat(65) })).toEqual({ code: 'invalid_input', message: 'name: Room name must be at most 64 characters.' });
    expect(await h.fail('rooms.rename', { roomId: 'nowhere', name: 'X' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('rooms.rename', { roomId: 'old', name: 'X' })).toEqual({ code: 'R4', message: 'This room is archived.' });
    expect(await h.fail('rooms.rename', { roomId: 'lab\u0007', name: 'X' })).toEqual({
      code: 'invalid_input',
      message: 'roomId: Room id must be 1–512 characters with no control characters.',
    });
    expect(h.snapshot()).toBe(before);
  });
});

describe('rooms.archive and rooms.pin', () => {
  it('archives a room read-only and brings it back', async () => {
    const h = await setUpApi();
    await h.room('lab');
    expect(await h.call('rooms.archive', { roomId: 'lab', archived: true })).toMatchObject({ archived: true });
    expect(await h.fail('messages.send', { roomId: 'lab', text: 'hi' })).toEqual({ code: 'R4', message: 'This room is archived.' });
    expect(await h.call('rooms.archive', { roomId: 'lab', archived: false })).toMatchObject({ archived: false });
    await h.call('messages.send', { roomId: 'lab', text: 'hi' });
    expect(eventsOf(h.events, 'room.changed').map((e) => e.change)).toEqual(['created', 'archived', 'unarchived']);
  });

  it('pins and unpins', async () => {
    const h = await setUpApi();
    await h.room('lab');
    expect(await h.call('rooms.pin', { roomId: 'lab', pinned: true })).toMatchObject({ pinned: true });
    expect(await h.call('rooms.pin', { roomId: 'lab', pinned: false })).toMatchObject({ pinned: false });
  });

  it('refuses an unknown room or a missing flag, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const before = h.snapshot();
    expect(await h.fail('rooms.archive', { roomId: 'nowhere', archived: true })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('rooms.pin', { roomId: 'nowhere', pinned: true })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('rooms.pin', { roomId: 'lab' })).toMatchObject({ code: 'invalid_input' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('rooms.setReplyToAll', () => {
  it('answers @all in turn by default, all at once when set, and back', async () => {
    const h = await setUpApi();
    await h.room('lab');
    expect((await h.call('rooms.list', {})).find((r) => r.id === 'lab')).toMatchObject({ replyToAll: 'in_turn' });
    expect(await h.call('rooms.setReplyToAll', { roomId: 'lab', mode: 'all_at_once' })).toMatchObject({ id: 'lab', replyToAll: 'all_at_once' });
    expect((await h.call('rooms.list', {})).find((r) => r.id === 'lab')).toMatchObject({ replyToAll: 'all_at_once' });
    expect(await h.call('rooms.setReplyToAll', { roomId: 'lab', mode: 'in_turn' })).toMatchObject({ replyToAll: 'in_turn' });
  });

  it('refuses an unknown mode, an unknown room or an archived one, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.room('old');
    await h.call('rooms.archive', { roomId: 'old', archived: true });
    const before = h.snapshot();
    expect(await h.fail('rooms.setReplyToAll', { roomId: 'lab', mode: 'sometimes' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('rooms.setReplyToAll', { roomId: 'lab' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('rooms.setReplyToAll', { roomId: 'nowhere', mode: 'all_at_once' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(await h.fail('rooms.setReplyToAll', { roomId: 'old', mode: 'all_at_once' })).toMatchObject({ code: 'R4' });
    expect(h.snapshot()).toBe(before);
    expect((await h.call('rooms.list', { includeArchived: true })).map((r) => r.replyToAll)).toEqual(['in_turn', 'in_turn']);
  });
});

describe('rooms.markRead', () => {
  it('clears the unread count and never moves backwards', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('send_message', { text: 'one' });
    await juniper.tool('send_message', { text: 'two' });
    expect(await h.call('rooms.markRead', { roomId: 'lab', number: 2 })).toEqual({ roomId: 'lab', place: 'local', lastReadNumber: 2, unread: 1 });
    expect(await h.call('rooms.markRead', { roomId: 'lab', number: 1 })).toEqual({ roomId: 'lab', place: 'local', lastReadNumber: 2, unread: 1 });
    // A number past the newest message is clamped to it.
    expect(await h.call('rooms.markRead', { roomId: 'lab', number: 99 })).toEqual({ roomId: 'lab', place: 'local', lastReadNumber: 3, unread: 0 });
    expect((await h.call('rooms.list', {}))[0].unread).toBe(0);
  });

  it("counts neither the person's own messages nor the events of their own actions", async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('add_task', { title: 'Fix login' });
    await h.call('rooms.markRead', { roomId: 'lab', number: 99 });
    await h.call('tasks.accept', { roomId: 'lab', number: 1 });
    await h.call('messages.send', { roomId: 'lab', text: 'On it.' });
    expect((await h.call('rooms.list', {}))[0].unread).toBe(0);
    // An agent's action is news.
    await juniper.tool('claim_task', { task_id: 'task_1' });
    expect((await h.call('rooms.list', {}))[0].unread).toBe(1);
  });

  it('refuses number 0 and an unknown room, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const before = h.snapshot();
    expect(await h.fail('rooms.markRead', { roomId: 'lab', number: 0 })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('rooms.markRead', { roomId: 'nowhere', number: 1 })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('rooms.export', () => {
  it('exports the whole room as Markdown: board, memory, threads in place', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('send_message', { text: 'Plan: **ship** it' });
    await h.call('messages.send', { roomId: 'lab', text: 'Agreed', threadRootNumber: 2 });
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await h.call('memory.add', { roomId: 'lab', category: 'decision', title: 'Database', body: 'SQLite' });

    const file = await h.call('rooms.export', { roomId: 'lab', format: 'markdown' });
    expect(file.mimeType).toBe('text/markdown');
    expect(file.fileName).toMatch(/^lab-\d{4}-\d{2}-\d{2}\.md$/);
    expect(file.content).toContain('# lab');
    expect(file.content).toContain('- **task_1** [accepted] Fix login');
    expect(file.content).toContain('- **fact_1** (decision) Database: SQLite');
    expect(file.content).toContain('**Juniper** · ');
    expect(file.content).toContain('Plan: **ship** it');
    expect(file.content).toMatch(/msg_3 · in thread msg_2\n\nAgreed/);
  });

  it('exports JSON that parses, every message of a long room in order', async () => {
    const h = await setUpApi();
    await h.room('big');
    const person = { kind: 'person' as const, label: 'Ada' };
    // More than two pages of the exporter, so paging is exercised.
    await h.app.core.store.write(async (tx) => {
      for (let i = 1; i <= 2_345; i++) await sendMessage(tx, { roomId: 'big', author: person, text: `message ${i}` });
    });
    const file = await h.call('rooms.export', { roomId: 'big', format: 'json' });
    expect(file.mimeType).toBe('application/json');
    const parsed = JSON.parse(file.content) as { room: { id: string }; messages: Array<{ id: string; text: string }> };
    expect(parsed.room.id).toBe('big');
    expect(parsed.messages).toHaveLength(2_345);
    expect(parsed.messages[0]).toMatchObject({ id: 'msg_1', text: 'message 1' });
    expect(parsed.messages.at(-1)).toMatchObject({ id: 'msg_2345', text: 'message 2345' });
  });

  it('leaves prompt-only rows out, as people never see them', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.app.core.store.write((tx) => sendMessage(tx, { roomId: 'lab', author: { kind: 'person', label: 'Ada' }, text: ' ', agentPromptKind: 'auto' }));
    const parsed = JSON.parse((await h.call('rooms.export', { roomId: 'lab', format: 'json' })).content) as { messages: unknown[] };
    expect(parsed.messages).toEqual([]);
  });

  it('refuses an unknown format or room', async () => {
    const h = await setUpApi();
    await h.room('lab');
    expect(await h.fail('rooms.export', { roomId: 'lab', format: 'pdf' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('rooms.export', { roomId: 'nowhere', format: 'json' })).toEqual({ code: 'R3', message: 'Room not found.' });
  });
});

describe('rooms.delete', () => {
  it('deletes the room and its data, and its agents go offline at once', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await h.call('tasks.create', { roomId: 'lab', title: 'Gone soon' });
    expect(await h.call('rooms.delete', { roomId: 'lab' })).toEqual({ removed: true });
    expect(await h.call('rooms.list', { includeArchived: true })).toEqual([]);
    expect(h.app.hub.bindings.isOnline(placeKey('local', juniper.sessionId))).toBe(false);
    expect(await h.fail('tasks.board', { roomId: 'lab' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(eventsOf(h.events, 'room.changed').at(-1)).toEqual({ type: 'room.changed', place: 'local', roomId: 'lab', change: 'deleted' });
  });

  it('refuses an unknown room, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const before = h.snapshot();
    expect(await h.fail('rooms.delete', { roomId: 'nowhere' })).toEqual({ code: 'R3', message: 'Room not found.' });
    expect(h.snapshot()).toBe(before);
  });
});
