// Rooms as the sidebar and the room header show them.
import { z } from 'zod';
import { Place, RoomId, RoomNumber, Timestamp } from './common';

export const RoomKind = z.enum(['invite', 'repo', 'named']);
/** How a person's @all is answered (issue 34): one agent at a time (the default) or all at once. */
export const ReplyToAll = z.enum(['in_turn', 'all_at_once']);

export const RoomSummary = z.object({
  id: RoomId,
  /** Where the room lives: 'local' (this computer) or a team's name; (place, id) names a room. */
  place: Place,
  kind: RoomKind,
  /** Display name (people may rename; the id never changes). */
  name: z.string(),
  /** "owner/repo" for repo rooms, else null. */
  repo: z.string().nullable(),
  /** The invite code for invite rooms, else null. */
  code: z.string().nullable(),
  pinned: z.boolean(),
  archived: z.boolean(),
  /** People-visible messages after the last one read. */
  unread: z.number().int().min(0),
  /** Number of the newest people-visible message, 0 when none. */
  lastNumber: z.number().int().min(0),
  lastActivityAt: Timestamp.nullable(),
  onlineAgents: z.number().int().min(0),
  /** How a person's @all is answered in this room. */
  replyToAll: ReplyToAll,
});

export const RoomExport = z.object({
  fileName: z.string(),
  mimeType: z.enum(['text/markdown', 'application/json']),
  content: z.string(),
});

export const MarkReadResult = z.object({ roomId: RoomId, place: Place, lastReadNumber: RoomNumber.or(z.literal(0)), unread: z.number().int().min(0) });

export type RoomKind = z.infer<typeof RoomKind>;
export type ReplyToAll = z.infer<typeof ReplyToAll>;
export type RoomSummary = z.infer<typeof RoomSummary>;
export type RoomExport = z.infer<typeof RoomExport>;
