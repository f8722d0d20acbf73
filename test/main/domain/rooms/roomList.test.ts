import { describe, expect, it } from 'vitest';
import { listRooms, UNREAD_COUNT_CAP } from '../../../../src/main/domain/rooms/roomList';
import { archiveRoom, createInviteRoom, markRoomRead, pinRoom } from '../../../../src/main/domain/rooms/rooms';
import { agent, makeStore, namedRoom, post } from '../messages/testStore';

describe('the sidebar room list', () => {
  it('puts pinned rooms first, then the most recently active, and archived rooms last', async () => {
    const t = makeStore();
    const quiet = await namedRoom(t, 'quiet');
    const busy = await namedRoom(t, 'busy');
    const pinned = await namedRoom(t, 'pinned');
    const old = await namedRoom(t, 'old');
    await post(t, old, 'first ever');
    await post(t, busy, 'latest news');
    await t.write((tx) => pinRoom(tx, pinned));
    const archived = await namedRoom(t, 'archived');
    await post(t, archived, 'newest of all, but archived');
    await t.write((tx) => archiveRoom(tx, archived));

    const list = await listRooms(t.q);
    expect(list.map((r) => r.roomId)).toEqual([pinned, busy, old, quiet, archived]);
    expect(list[0]).toMatchObject({ pinned: true, archived: false, kind: 'named', displayName: 'pinned', code: null });
    expect(list.at(-1)).toMatchObject({ archived: true });
    expect(list.find((r) => r.roomId === quiet)).toMatchObject({ latestMessageNumber: 0, unreadCount: 0 });
  });

  it('activity is the newest message time, or the creation time of an empty room', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const [before] = await listRooms(t.q);
    await post(t, room, 'hello');
    const [after] = await listRooms(t.q);
    expect(after.lastActivityAt > before.lastActivityAt).toBe(true);
  });

  it('counts unread messages after the read marker, leaving out the person’s own and prompt-only rows', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const juniper = agent('Juniper');
    await post(t, room, 'agent one', { author: juniper });
    await post(t, room, 'my own message');
    await post(t, room, '', { author: juniper, agentPromptKind: 'auto' });
    await post(t, room, 'agent two', { author: juniper });
    expect((await listRooms(t.q))[0].unreadCount).toBe(2);
    await t.write((tx) => markRoomRead(tx, room, 1));
    expect((await listRooms(t.q))[0].unreadCount).toBe(1);
    await t.write((tx) => markRoomRead(tx, room, 4));
    expect((await listRooms(t.q))[0].unreadCount).toBe(0);
  });

  it('stops counting unread messages at the cap', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const juniper = agent('Juniper');
    await t.write(async (tx) => {
      for (let i = 0; i < UNREAD_COUNT_CAP + 5; i++) {
        await tx.run(
          `INSERT INTO messages (room_id, number, kind, source, sender, text, created_at) VALUES (?, ?, 'message', 'agent', ?, 'x', ?)`,
          room, i + 1, juniper.label, tx.now,
        );
      }
    });
    expect((await listRooms(t.q))[0].unreadCount).toBe(UNREAD_COUNT_CAP);
  });

  it('shows invite rooms with their code', async () => {
    const t = makeStore();
    const room = await t.write((tx) => createInviteRoom(tx));
    expect((await listRooms(t.q))[0]).toMatchObject({ kind: 'invite', code: room.room_id, displayName: `Room ${room.room_id}` });
  });

  it('is bounded by a limit', async () => {
    const t = makeStore();
    for (const id of ['a', 'b', 'c']) await namedRoom(t, id);
    expect(await listRooms(t.q, { limit: 2 })).toHaveLength(2);
  });
});
