// rooms.*: the sidebar's room list and what a person does to a room (rename, archive,
// pin, mark read, export, delete).
import { archiveRoom, deleteRoom, markRoomRead, pinRoom, renameRoom, requireRoom, unarchiveRoom, unpinRoom } from '../../domain/rooms/rooms';
import { listRoomSessions } from '../../domain/sessions/sessions';
import type { ApiContext } from '../context';
import { roomSummaries, roomSummary } from '../models/rooms';
import { exportRoom } from './roomExport';
import type { Methods } from './types';

type RoomMethods = Methods<'rooms.list' | 'rooms.rename' | 'rooms.archive' | 'rooms.pin' | 'rooms.markRead' | 'rooms.export' | 'rooms.delete'>;

export function roomMethods(ctx: ApiContext): RoomMethods {
  const { app } = ctx;
  const summary = (roomId: string) => ctx.read((q) => roomSummary(app, q, roomId));
  return {
    'rooms.list': async ({ includeArchived }) => (await ctx.read((q) => roomSummaries(app, q))).filter((room) => includeArchived || !room.archived),

    'rooms.rename': async ({ roomId, name }) => {
      await ctx.write((tx) => renameRoom(tx, roomId, name));
      return summary(roomId);
    },

    'rooms.archive': async ({ roomId, archived }) => {
      await ctx.write((tx) => (archived ? archiveRoom(tx, roomId) : unarchiveRoom(tx, roomId)));
      return summary(roomId);
    },

    'rooms.pin': async ({ roomId, pinned }) => {
      await ctx.write((tx) => (pinned ? pinRoom(tx, roomId) : unpinRoom(tx, roomId)));
      return summary(roomId);
    },

    'rooms.markRead': async ({ roomId, number }) => {
      const lastReadNumber = await ctx.write((tx) => markRoomRead(tx, roomId, number));
      return { roomId, lastReadNumber, unread: (await summary(roomId)).unread };
    },

    'rooms.export': ({ roomId, format }) => ctx.read((q) => exportRoom(q, roomId, format, new Date().toISOString())),

    'rooms.delete': async ({ roomId }) => {
      const sessions = await ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return listRoomSessions(q, roomId);
      });
      // Agents connected to the room lose their sessions first, so a wait ends at once
      // (W14) and a queued write of theirs is fenced out instead of landing in a void.
      for (const session of sessions) app.hub.bindings.unbindAll(session.session_id);
      const dataDir = app.core.dataDir === ':memory:' ? undefined : app.core.dataDir;
      await ctx.write((tx) => deleteRoom(tx, roomId, { dataDir }));
      return { removed: true };
    },
  };
}
