// messages.*: the chat timeline (newest page, before/after a number, around a search hit),
// a thread, the person's posts, and search (one room, or every room of every place this
// app can read now). Each call works in its room's place ('local' when omitted).
import type { SearchResult, TimelinePage } from '../../../shared/model/messages';
import { appErrors } from '../../domain/errors';
import { msgId, parseNumberedId } from '../../domain/ids';
import { getMessageRow } from '../../domain/messages/read';
import { searchEveryRoom, searchMessages } from '../../domain/messages/search';
import { sendMessage } from '../../domain/messages/send';
import { previewWake } from '../../domain/activation/wakePreview';
import { replyToAllOf } from '../../domain/activation/broadcastTurns';
import { roomFactsFor } from '../../domain/activation/untaggedFacts';
import { threadView, timelineAfter, timelinePage, DEFAULT_TIMELINE_LIMIT, MAX_TIMELINE_LIMIT, type TimelineMessage as DomainMessage } from '../../domain/messages/timeline';
import { requireRoom } from '../../domain/rooms/rooms';
import { DEFAULT_ROOM_LIST_LIMIT } from '../../domain/rooms/roomList';
import type { MessageRow, Queryable } from '../../store/port';
import { mapInOrder } from '../../domain/inOrder';
import type { ApiContext } from '../context';
import { toTimelineMessage, type Viewer } from '../models/messages';
import { senderOf } from '../models/people';
import { highlightSnippet } from '../models/snippets';
import type { Methods } from './types';

type MessageMethods = Methods<'messages.timeline' | 'messages.thread' | 'messages.send' | 'messages.preview' | 'messages.search' | 'messages.searchAll'>;

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
  /** Maps domain messages to the UI's, with their reply stats, in order. */
  const mapper = async (q: Queryable, viewer: Viewer) => (messages: readonly DomainMessage[]) =>
    mapInOrder(messages, (m) => toTimelineMessage(q, m, viewer, m));
  return {
    'messages.timeline': async (input) => {
      const viewer = await ctx.viewer(input.place);
      return ctx.read(async (q) => {
        await requireRoom(q, input.roomId);
        return timeline(q, input, await mapper(q, viewer));
      }, input.place);
    },

    'messages.thread': async ({ roomId, place, rootNumber }) => {
      const viewer = await ctx.viewer(place);
      return ctx.read(async (q) => {
        await requireRoom(q, roomId);
        const first = await threadView(q, roomId, rootNumber, { limit: MAX_TIMELINE_LIMIT });
        if (!first) throw appErrors.notFound('Message');
        const replies = [...first.replies];
        let more = first.hasMore;
        // Page forward through a long thread, up to the panel's bound.
        while (more && replies.length < MAX_THREAD_REPLIES) {
          const next = (await threadView(q, roomId, rootNumber, { after: replies[replies.length - 1].number, limit: MAX_TIMELINE_LIMIT }))!;
          replies.push(...next.replies);
          more = next.hasMore;
        }
        const map = await mapper(q, viewer);
        return { root: (await map([first.root]))[0], replies: await map(replies.slice(0, MAX_THREAD_REPLIES)) };
      }, place);
    },

    'messages.send': async ({ roomId, place, text, threadRootNumber, replyToNumber }) => {
      const author = await ctx.person(place);
      const placeName = await ctx.place(place);
      const number = await ctx.write(async (tx) =>
        sendMessage(tx, {
          roomId,
          author,
          text,
          replyTo: replyToNumber === undefined ? null : msgId(replyToNumber),
          threadRootId: threadRootNumber === undefined ? null : msgId(threadRootNumber),
          // Whom it wakes when it names nobody, decided here once (issue 34).
          roomFacts: await roomFactsFor(ctx.app.hub.services, tx, placeName, roomId),
        }), place,
      );
      const viewer = await ctx.viewer(place);
      return ctx.read(async (q) => toTimelineMessage(q, (await getMessageRow(q, roomId, number))!, viewer), place);
    },

    // The composer's "→ …": the rule the send applies, on the room as it is now.
    'messages.preview': async ({ roomId, place, text, threadRootNumber, replyToNumber }) => {
      const placeName = await ctx.place(place);
      return ctx.read(async (q) => {
        const room = await requireRoom(q, roomId);
        const draft = { text, replyToNumber: replyToNumber ?? null, threadRootNumber: threadRootNumber ?? null };
        return previewWake(draft, await roomFactsFor(ctx.app.hub.services, q, placeName, roomId), replyToAllOf(room.reply_to_all));
      }, place);
    },

    'messages.search': ({ roomId, place, query, limit }) =>
      ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return searchRoom(q, roomId, query, limit);
      }, place),

    'messages.searchAll': async ({ query, perRoom }) => {
      const groups = [];
      // Every place this app can read now, in the sidebar's order (this computer, then each team);
      // in each, its rooms in the list's order (one statement on a team's server).
      for (const storage of await ctx.app.places.reachable()) {
        const found = await storage.read((q) => searchEveryRoom(q, query, perRoom ?? PER_ROOM_HITS, DEFAULT_ROOM_LIST_LIMIT));
        for (const room of found) groups.push({ roomId: room.roomId, place: storage.place, hits: room.rows.map((row) => hitOf(row, query)), hasMore: room.hasMore });
      }
      return { groups };
    },
  };
}

/** One room's hits with highlighted snippets, newest first. */
async function searchRoom(q: Queryable, roomId: string, query: string, limit?: number): Promise<SearchResult> {
  const result = await searchMessages(q, roomId, query, limit);
  const hits = [];
  for (const match of result.matches) {
    const row = await getMessageRow(q, roomId, parseNumberedId('msg', match.id)!);
    if (row) hits.push(hitOf(row, query));
  }
  return { hits, hasMore: result.has_more };
}

/** A found message as the search shows it. */
function hitOf(row: MessageRow, query: string): SearchResult['hits'][number] {
  return { number: row.number, threadRootNumber: row.thread_root_number, sender: senderOf(row), createdAt: row.created_at, snippet: highlightSnippet(row.text, query) };
}

type MapMessages = (messages: readonly DomainMessage[]) => Promise<Awaited<ReturnType<typeof toTimelineMessage>>[]>;

async function timeline(q: Queryable, input: PageRequest, map: MapMessages): Promise<TimelinePage> {
  const { roomId } = input;
  const limit = input.limit ?? DEFAULT_TIMELINE_LIMIT;
  const cursors = [input.before, input.after, input.around].filter((c) => c !== undefined).length;
  if (cursors > 1) throw appErrors.invalidInput('Pass at most one of before, after and around.');
  // Whether any top-level message exists below / above a number (one row each way).
  const anyBefore = async (n: number) => (await timelinePage(q, roomId, { before: n, limit: 1 })).messages.length > 0;
  const anyAfter = async (n: number) => (await timelineAfter(q, roomId, n, { limit: 1 })).messages.length > 0;

  if (input.after !== undefined) {
    const page = await timelineAfter(q, roomId, input.after, { limit });
    return { messages: await map(page.messages), hasMoreBefore: await anyBefore(input.after + 1), hasMoreAfter: page.hasMore };
  }
  if (input.around !== undefined) {
    // A thread reply is shown in place of its thread: the page centres on the root.
    const target = await getMessageRow(q, roomId, input.around);
    const centre = target?.thread_root_number ?? input.around;
    const older = await timelinePage(q, roomId, { before: centre + 1, limit: Math.ceil(limit / 2) });
    const room = limit - older.messages.length;
    const newer = room > 0 ? await timelineAfter(q, roomId, centre, { limit: room }) : { messages: [], hasMore: await anyAfter(centre) };
    return { messages: await map([...older.messages, ...newer.messages]), hasMoreBefore: older.hasMore, hasMoreAfter: newer.hasMore };
  }
  const page = await timelinePage(q, roomId, { before: input.before, limit });
  return {
    messages: await map(page.messages),
    hasMoreBefore: page.hasMore,
    hasMoreAfter: input.before === undefined ? false : await anyAfter(input.before - 1),
  };
}
