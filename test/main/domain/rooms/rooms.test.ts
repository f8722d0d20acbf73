import { describe, expect, it } from 'vitest';
import {
  archiveRoom,
  createInviteRoom,
  deleteRoom,
  ensureRoom,
  getRoom,
  markRoomRead,
  pinRoom,
  renameRoom,
  resolveWritableRoom,
  unarchiveRoom,
  unpinRoom,
} from '../../../../src/main/domain/rooms/rooms';
import { saveJoinedRoom } from '../../../../src/main/domain/rooms/clientRoomSessions';
import { searchMessages } from '../../../../src/main/domain/messages/search';
import { agent, makeStore, namedRoom, post, snapshot } from '../messages/testStore';


describe('creating rooms', () => {
  it('an invite room gets a fresh code as its id and is named "Room <code>"', async () => {
    const t = makeStore();
    const room = await t.write((tx) => createInviteRoom(tx));
    expect(room.room_id).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(room).toMatchObject({ kind: 'invite', display_name: `Room ${room.room_id}`, archived_at: null });
    expect(t.events).toContainEqual({ type: 'room.changed', place: 'local', roomId: room.room_id, change: 'created' });
    const other = await t.write((tx) => createInviteRoom(tx));
    expect(other.room_id).not.toBe(room.room_id);
  });

  it('ensureRoom creates a missing room once and then returns it unchanged', async () => {
    const t = makeStore();
    const first = await t.write((tx) => ensureRoom(tx, { roomId: ' github.com/o/r ', kind: 'repo' }));
    expect(first.created).toBe(true);
    expect(first.room).toMatchObject({ room_id: 'github.com/o/r', kind: 'repo', display_name: 'github.com/o/r' });
    const again = await t.write((tx) => ensureRoom(tx, { roomId: 'github.com/o/r', kind: 'repo' }));
    expect(again).toEqual({ room: first.room, created: false });
    expect(t.events.filter((e) => e.type === 'room.changed')).toHaveLength(1);
  });

  it('ensureRoom refuses a bad id and stores nothing', async () => {
    const t = makeStore();
    const before = snapshot(t.db);
    await expect(t.write((tx) => ensureRoom(tx, { roomId: 'x'.repeat(513), kind: 'named' }))).rejects.toThrow(
      'Room id must be 1–512 characters with no control characters.',
    );
    await expect(t.write((tx) => ensureRoom(tx, { roomId: 'nope', kind: 'invite' }))).rejects.toThrow(
      'Invalid join code. Expected a code like ABCX-7291.',
    );
    expect(snapshot(t.db)).toBe(before);
    expect(t.events).toEqual([]);
  });

  it('a writable room must exist (R3) and not be archived (R4)', async () => {
    const t = makeStore();
    const id = await namedRoom(t);
    expect((await resolveWritableRoom(t.q, id)).room_id).toBe(id);
    await expect(resolveWritableRoom(t.q, 'missing')).rejects.toThrow('Room not found.');
    await t.write((tx) => archiveRoom(tx, id));
    await expect(resolveWritableRoom(t.q, id)).rejects.toThrow('This room is archived.');
    expect(await getRoom(t.q, 'missing')).toBeNull();
  });
});

describe('what a person can do with a room', () => {
  it('renames it while the id stays the same', async () => {
    const t = makeStore();
    const id = await namedRoom(t);
    const room = await t.write((tx) => renameRoom(tx, id, '  Launch   plan '));
    expect(room).toMatchObject({ room_id: id, display_name: 'Launch plan' });
    expect(t.events.at(-1)).toEqual({ type: 'room.changed', place: 'local', roomId: id, change: 'renamed' });
  });

  it('refuses a blank name or a rename of an archived room, changing nothing', async () => {
    const t = makeStore();
    const id = await namedRoom(t);
    const before = snapshot(t.db);
    await expect(t.write((tx) => renameRoom(tx, id, '   '))).rejects.toThrow(
      'Room name must be 1–512 characters with no control characters.',
    );
    await expect(t.write((tx) => renameRoom(tx, 'missing', 'x'))).rejects.toThrow('Room not found.');
    expect(snapshot(t.db)).toBe(before);
    await t.write((tx) => archiveRoom(tx, id));
    await expect(t.write((tx) => renameRoom(tx, id, 'Other'))).rejects.toThrow('This room is archived.');
    expect((await getRoom(t.q, id))?.display_name).toBe(id);
  });

  it('archives and unarchives it, each once', async () => {
    const t = makeStore();
    const id = await namedRoom(t);
    const archived = await t.write((tx) => archiveRoom(tx, id));
    expect(archived.archived_at).not.toBeNull();
    const twice = await t.write((tx) => archiveRoom(tx, id));
    expect(twice.archived_at).toBe(archived.archived_at);
    const live = await t.write((tx) => unarchiveRoom(tx, id));
    expect(live.archived_at).toBeNull();
    expect(t.events.filter((e) => e.type === 'room.changed').map((e) => (e as { change: string }).change)).toEqual([
      'created',
      'archived',
      'unarchived',
    ]);
  });

  it('pins and unpins it', async () => {
    const t = makeStore();
    const id = await namedRoom(t);
    expect((await t.write((tx) => pinRoom(tx, id))).pinned_at).not.toBeNull();
    expect((await t.write((tx) => unpinRoom(tx, id))).pinned_at).toBeNull();
    expect(t.events.at(-1)).toEqual({ type: 'room.changed', place: 'local', roomId: id, change: 'updated' });
  });

  it('marks it read forward only, never past the newest message', async () => {
    const t = makeStore();
    const id = await namedRoom(t);
    await post(t, id, 'one');
    await post(t, id, 'two');
    expect(await t.write((tx) => markRoomRead(tx, id, 1))).toBe(1);
    expect(await t.write((tx) => markRoomRead(tx, id, 99))).toBe(2);
    expect(await t.write((tx) => markRoomRead(tx, id, 1))).toBe(2);
    await expect(t.write((tx) => markRoomRead(tx, id, -1))).rejects.toThrow('The read position must be a message number.');
  });

  it('deletes it with all of its data, and the same id starts fresh', async () => {
    const t = makeStore();
    const keep = await namedRoom(t, 'keep');
    await post(t, keep, 'kept message about deployments');
    const before = snapshot(t.db);
    const id = await namedRoom(t, 'doomed');
    const juniper = agent('Juniper');
    const n = await post(t, id, 'deployments are broken', { author: juniper });
    await post(t, id, 'reply', { author: juniper, threadParentId: `msg_${n}` });
    await t.write(async (tx) => {
      await tx.run('INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?, ?)', id, n, 'att_1', 'a.txt', 'text/plain', 2, 'attachments/a.txt');
      await tx.run('INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?, ?)', id, n, 'att_2', 'x', 'text/plain', 1, '../outside.txt');
      await tx.run(
        'INSERT INTO tasks (room_id, number, status, title, created_by, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?, ?)',
        id, 'proposed', 'Fix', 'Ada', tx.now, tx.now,
      );
      await saveJoinedRoom(tx, 'client\n/cwd', 'local', id, 'join_room', true);
      await markRoomRead(tx, id, n);
    });

    await t.write((tx) => deleteRoom(tx, id));

    expect(await getRoom(t.q, id)).toBeNull();
    expect(snapshot(t.db)).toBe(before);
    expect(t.events.at(-1)).toEqual({ type: 'room.changed', place: 'local', roomId: id, change: 'deleted' });
    await namedRoom(t, 'doomed');
    expect(await post(t, 'doomed', 'fresh')).toBe(1);
    expect((await searchMessages(t.q, 'doomed', 'deployments')).matches).toEqual([]);
    // The search index dropped the deleted messages too: it still agrees with the messages table.
    await t.write((tx) => tx.run("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')"));
  });

  it('a rolled-back delete keeps the room', async () => {
    const t = makeStore();
    const id = await namedRoom(t);
    await post(t, id, 'kept');
    await expect(
      t.write(async (tx) => {
        await deleteRoom(tx, id);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await getRoom(t.q, id)).not.toBeNull();
  });
});
