import { describe, expect, it } from 'vitest';
import {
  advanceClientCursor,
  clientKeyOf,
  getSavedCurrentRoom,
  getSavedRoomSession,
  saveJoinedRoom,
} from '../../../../src/main/domain/rooms/clientRoomSessions';
import { deleteRoom } from '../../../../src/main/domain/rooms/rooms';
import { makeStore, namedRoom } from '../messages/testStore';

const claudeHere = clientKeyOf('claude-code', '/home/ada/app');
const claudeThere = clientKeyOf('claude-code', '/home/ada/other');

describe('saved room sessions', () => {
  it('are kept per client name and working directory', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', room, 'join_room', true));
    expect(await getSavedCurrentRoom(t.q, claudeHere)).toMatchObject({
      clientKey: claudeHere,
      roomId: room,
      joinedVia: 'join_room',
      lastMessageId: null,
      isCurrent: true,
    });
    expect(await getSavedCurrentRoom(t.q, claudeThere)).toBeNull();
    expect(clientKeyOf('codex', '/x')).toBe('codex\n/x');
  });

  it('one current room per client: joining another room with makeCurrent moves it', async () => {
    const t = makeStore();
    const a = await namedRoom(t, 'a');
    const b = await namedRoom(t, 'b');
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', a, 'config', true));
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', b, 'join_room', false));
    expect((await getSavedCurrentRoom(t.q, claudeHere))?.roomId).toBe(a);
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', b, 'join_room', true));
    expect((await getSavedCurrentRoom(t.q, claudeHere))?.roomId).toBe(b);
    expect(await getSavedRoomSession(t.q, claudeHere, a)).toMatchObject({ isCurrent: false, joinedVia: 'config' });
  });

  it('rejoining keeps the cursor and updates how the room was joined', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', room, 'git-remote', true));
    await t.write((tx) => advanceClientCursor(tx, claudeHere, 'local', room, 5));
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', room, 'join_code', true));
    expect(await getSavedRoomSession(t.q, claudeHere, room)).toMatchObject({ lastMessageId: 'msg_5', joinedVia: 'join_code' });
  });

  it('the cursor only moves forward', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', room, 'join_room', true));
    expect(await t.write((tx) => advanceClientCursor(tx, claudeHere, 'local', room, 7))).toBe(true);
    expect(await t.write((tx) => advanceClientCursor(tx, claudeHere, 'local', room, 3))).toBe(false);
    expect(await t.write((tx) => advanceClientCursor(tx, claudeHere, 'local', room, 7))).toBe(false);
    expect(await t.write((tx) => advanceClientCursor(tx, claudeHere, 'local', room, 0))).toBe(false);
    expect((await getSavedRoomSession(t.q, claudeHere, room))?.lastMessageId).toBe('msg_7');
    expect(await t.write((tx) => advanceClientCursor(tx, claudeHere, 'local', room, 12))).toBe(true);
    expect((await getSavedRoomSession(t.q, claudeHere, room))?.lastMessageId).toBe('msg_12');
  });

  it('a room the client never joined keeps no cursor', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    expect(await t.write((tx) => advanceClientCursor(tx, claudeHere, 'local', room, 3))).toBe(false);
    expect(await getSavedRoomSession(t.q, claudeHere, room)).toBeNull();
  });

  it('keep each room\'s place: the same id in a team is another room, and the last joined is current', async () => {
    const t = makeStore();
    const room = await namedRoom(t, 'lab');
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', room, 'join_room', true));
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'acme', room, 'join_room', true));
    expect(await getSavedCurrentRoom(t.q, claudeHere)).toMatchObject({ place: 'acme', roomId: room, isCurrent: true });
    expect(await getSavedRoomSession(t.q, claudeHere, room, 'local')).toMatchObject({ place: 'local', isCurrent: false });
    await t.write((tx) => advanceClientCursor(tx, claudeHere, 'acme', room, 4));
    expect((await getSavedRoomSession(t.q, claudeHere, room, 'acme'))?.lastMessageId).toBe('msg_4');
    expect((await getSavedRoomSession(t.q, claudeHere, room, 'local'))?.lastMessageId).toBeNull();
    // Deleting this computer's room keeps the team room's session.
    await t.write((tx) => deleteRoom(tx, room));
    expect(await getSavedRoomSession(t.q, claudeHere, room, 'local')).toBeNull();
    expect(await getSavedRoomSession(t.q, claudeHere, room)).toMatchObject({ place: 'acme' });
  });

  it('disappear with their room', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await t.write((tx) => saveJoinedRoom(tx, claudeHere, 'local', room, 'join_room', true));
    await t.write((tx) => deleteRoom(tx, room));
    expect(await getSavedCurrentRoom(t.q, claudeHere)).toBeNull();
  });
});
