// rooms.*: the sidebar's room list (every place), a new room in a chosen place, and what a
// person does to a room (rename, archive, pin, mark read, export, delete). A room is named
// by its id and place ('local' when omitted).
import { archiveRoom, deleteRoom, ensureRoom, markRoomRead, pinRoom, renameRoom, requireRoom, setReplyToAll, unarchiveRoom, unpinRoom } from '../../domain/rooms/rooms';
import { classifyRoomName } from '../../domain/rooms/roomIds';
import { listRoomSessions } from '../../domain/sessions/sessions';
import type { ApiContext } from '../context';
import { allRoomSummaries, roomSummary } from '../models/rooms';
import { placeKey } from '../../domain/placeKeys';
import { exportRoom } from './roomExport';
import type { Methods } from './types';

type RoomMethods = Methods<
  'rooms.list' | 'rooms.create' | 'rooms.rename' | 'rooms.archive' | 'rooms.pin' | 'rooms.setReplyToAll' | 'rooms.markRead' | 'rooms.export' | 'rooms.delete'
>;

export function roomMethods(ctx: ApiContext): RoomMethods {
  const { app } = ctx;
  /** A person's change to a room, answered with its summary. */
  const change = async (input: { roomId: string; place?: string }, fn: Parameters<ApiContext['write']>[0]) => {
    const place = await ctx.place(input.place);
    await ctx.write(fn, place);
    return roomSummary(ctx, place, input.roomId);
  };
  return {
    'rooms.list': async ({ includeArchived }) => (await allRoomSummaries(ctx)).filter((room) => includeArchived || !room.archived),

    'rooms.create': async ({ name, place: asked }) => {
      const { roomId, kind } = classifyRoomName(name);
      const place = asked === undefined ? await app.places.placeForNewRoom(kind, roomId) : await ctx.place(asked);
      await ctx.write((tx) => ensureRoom(tx, { roomId, kind }), place);
      return roomSummary(ctx, place, roomId);
    },

    'rooms.rename': (input) => change(input, (tx) => renameRoom(tx, input.roomId, input.name)),
    'rooms.archive': (input) => change(input, (tx) => (input.archived ? archiveRoom(tx, input.roomId) : unarchiveRoom(tx, input.roomId))),
    'rooms.pin': (input) => change(input, (tx) => (input.pinned ? pinRoom(tx, input.roomId) : unpinRoom(tx, input.roomId))),
    'rooms.setReplyToAll': (input) => change(input, (tx) => setReplyToAll(tx, input.roomId, input.mode)),

    'rooms.markRead': async ({ roomId, place: asked, number }) => {
      const place = await ctx.place(asked);
      const reader = await ctx.reader(place);
      const lastReadNumber = await ctx.write((tx) => markRoomRead(tx, roomId, number, reader), place);
      return { roomId, place, lastReadNumber, unread: (await roomSummary(ctx, place, roomId)).unread };
    },

    'rooms.export': ({ roomId, place, format }) => ctx.read((q) => exportRoom(q, roomId, format, new Date().toISOString()), place),

    'rooms.delete': async ({ roomId, place: asked }) => {
      const place = await ctx.place(asked);
      const sessions = await ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return listRoomSessions(q, roomId);
      }, place);
      // Agents connected to the room lose their sessions first, so a wait ends at once
      // (W14) and a queued write of theirs is fenced out instead of landing in a void.
      for (const session of sessions) app.hub.bindings.unbindAll(placeKey(place, session.session_id));
      await ctx.write((tx) => deleteRoom(tx, roomId), place);
      return { removed: true };
    },
  };
}
