// messages.*: the chat timeline (newest page, before/after a number, around a search hit),
// a thread, the person's posts, and search.
import type { SearchResult, TimelinePage } from '../../../shared/model/messages';
import { appErrors } from '../../domain/errors';
import { msgId, parseNumberedId } from '../../domain/ids';
import { getMessageRow } from '../../domain/messages/read';
import { searchMessages } from '../../domain/messages/search';
import { sendMessage } from '../../domain/messages/send';
import { threadView, timelineAfter, timelinePage, DEFAULT_TIMELINE_LIMIT, MAX_TIMELINE_LIMIT, type TimelineMessage as DomainMessage } from '../../domain/messages/timeline';
import { listRooms, requireRoom } from '../../domain/rooms/rooms';
import type { Db } from '../../store/database';
import type { ApiContext } from '../context';
import { toTimelineMessage } from '../models/messages';
import { senderOf } from '../models/people';
import { highlightSnippet } from '../models/snippets';
import type { Methods } from './types';

type MessageMethods = Methods<'messages.timeline' | 'messages.thread' | 'messages.send' | 'messages.search' | 'messages.searchAll'>;

/** Hits per room in a search of every room (the newest ones). */
const PER_ROOM_HITS = 10;

/** A thread panel shows at most this many replies (the contract has no paging for threads). */
export const MAX_THREAD_REPLIES = 2000;

interface PageRequest {
  roomId: string;
  before?: number;
  after?: number;
  around?: number;
  limit?: number;
}

export function messageMethods(ctx: ApiContext): MessageMethods {
  const map = (m: DomainMessage) => toTimelineMessage(ctx.db, m, ctx.personHandles(), m);
  return {
    'messages.timeline': (input) => {
      requireRoom(ctx.db, input.roomId);
      return timeline(ctx.db, input, map);
    },

    'messages.thread': ({ roomId, rootNumber }) => {
      requireRoom(ctx.db, roomId);
      const first = threadView(ctx.db, roomId, rootNumber, { limit: MAX_TIMELINE_LIMIT });
      if (!first) throw appErrors.notFound('Message');
      const replies = [...first.replies];
      let more = first.hasMore;
      // Page forward through a long thread, up to the panel's bound.
      while (more && replies.length < MAX_THREAD_REPLIES) {
        const next = threadView(ctx.db, roomId, rootNumber, { after: replies[replies.length - 1].number, limit: MAX_TIMELINE_LIMIT })!;
        replies.push(...next.replies);
        more = next.hasMore;
      }
      return { root: map(first.root), replies: replies.slice(0, MAX_THREAD_REPLIES).map(map) };
    },

    'messages.send': async ({ roomId, text, threadRootNumber, replyToNumber }) => {
      const number = await ctx.write((tx) =>
        sendMessage(tx, {
          roomId,
          author: ctx.person(),
          text,
          replyTo: replyToNumber === undefined ? null : msgId(replyToNumber),
          threadRootId: threadRootNumber === undefined ? null : msgId(threadRootNumber),
        }),
      );
      return toTimelineMessage(ctx.db, getMessageRow(ctx.db, roomId, number)!, ctx.personHandles());
    },

    'messages.search': ({ roomId, query, limit }) => {
      requireRoom(ctx.db, roomId);
      return searchRoom(ctx.db, roomId, query, limit);
    },

    'messages.searchAll': ({ query, perRoom }) => {
      const groups = listRooms(ctx.db).flatMap((room) => {
        const found = searchRoom(ctx.db, room.roomId, query, perRoom ?? PER_ROOM_HITS);
        return found.hits.length > 0 ? [{ roomId: room.roomId, ...found }] : [];
      });
      return { groups };
    },
  };
}

/** One room's hits with highlighted snippets, newest first. */
function searchRoom(db: Db, roomId: string, query: string, limit?: number): SearchResult {
  const result = searchMessages(db, roomId, query, limit);
  const hits = result.matches.flatMap((match) => {
    const row = getMessageRow(db, roomId, parseNumberedId('msg', match.id)!);
    if (!row) return [];
    return [{ number: row.number, threadRootNumber: row.thread_root_number, sender: senderOf(row), createdAt: row.created_at, snippet: highlightSnippet(row.text, query) }];
  });
  return { hits, hasMore: result.has_more };
}

function timeline(db: Db, input: PageRequest, map: (m: DomainMessage) => ReturnType<typeof toTimelineMessage>): TimelinePage {
  const { roomId } = input;
  const limit = input.limit ?? DEFAULT_TIMELINE_LIMIT;
  const cursors = [input.before, input.after, input.around].filter((c) => c !== undefined).length;
  if (cursors > 1) throw appErrors.invalidInput('Pass at most one of before, after and around.');
  // Whether any top-level message exists below / above a number (one row each way).
  const anyBefore = (n: number) => timelinePage(db, roomId, { before: n, limit: 1 }).messages.length > 0;
  const anyAfter = (n: number) => timelineAfter(db, roomId, n, { limit: 1 }).messages.length > 0;

  if (input.after !== undefined) {
    const page = timelineAfter(db, roomId, input.after, { limit });
    return { messages: page.messages.map(map), hasMoreBefore: anyBefore(input.after + 1), hasMoreAfter: page.hasMore };
  }
  if (input.around !== undefined) {
    // A thread reply is shown in place of its thread: the page centres on the root.
    const target = getMessageRow(db, roomId, input.around);
    const centre = target?.thread_root_number ?? input.around;
    const older = timelinePage(db, roomId, { before: centre + 1, limit: Math.ceil(limit / 2) });
    const room = limit - older.messages.length;
    const newer = room > 0 ? timelineAfter(db, roomId, centre, { limit: room }) : { messages: [], hasMore: anyAfter(centre) };
    return { messages: [...older.messages, ...newer.messages].map(map), hasMoreBefore: older.hasMore, hasMoreAfter: newer.hasMore };
  }
  const page = timelinePage(db, roomId, { before: input.before, limit });
  return {
    messages: page.messages.map(map),
    hasMoreBefore: page.hasMore,
    hasMoreAfter: input.before === undefined ? false : anyAfter(input.before - 1),
  };
}
